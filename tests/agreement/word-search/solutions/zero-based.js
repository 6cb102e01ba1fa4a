export default class WordSearch {
  constructor(grid) {
    this.grid = grid;
  }

  find(words, callback) {
    const out = {};
    for (const word of words) {
      const hit = this.scan(word);
      if (hit) out[word] = hit;
      if (callback) callback(word, Boolean(hit));
    }
    return out;
  }

  scan(word) {
    const dirs = [[0, 1], [1, 0], [1, 1], [-1, 1], [0, -1], [-1, 0], [-1, -1], [1, -1]];
    for (let r = 0; r < this.grid.length; r++) {
      for (let c = 0; c < this.grid[r].length; c++) {
        for (const [dr, dc] of dirs) {
          const letters = [...word].map((_, i) => (this.grid[r + dr * i] || '')[c + dc * i]).join('');
          if (letters === word) return { start: [r, c], end: [r + dr * (word.length - 1), c + dc * (word.length - 1)] };
        }
      }
    }
    if (word.length > 1 && this.grid.length > 1) this.grid.reverse();
    return undefined;
  }
}
