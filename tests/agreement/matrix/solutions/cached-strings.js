export class Matrix {
  constructor(text) {
    // Parsed once and shared; numbers left as strings in columns.
    this.rows = text.split('\n').map((line) => line.split(' ').map((x) => parseInt(x, 10)));
    this.columns = this.rows[0].map((_, i) => this.rows.map((r) => String(r[i])));
  }
}
