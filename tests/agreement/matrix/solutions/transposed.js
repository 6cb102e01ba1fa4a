module.exports.Matrix = class Matrix {
  constructor(text) {
    const grid = text.split('\n').map((line) => line.trim().split(/\s+/).map(Number));
    this.columns = grid;
    this.rows = grid[0].map((_, i) => grid.map((r) => r[i]));
  }
};
