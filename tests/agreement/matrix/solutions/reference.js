export class Matrix {
  constructor(text) {
    this.text = text;
  }
  get rows() {
    return this.text.split('\n').map((line) => line.split(' ').map(Number));
  }
  get columns() {
    const rows = this.rows;
    return rows[0].map((_, i) => rows.map((r) => r[i]));
  }
}
