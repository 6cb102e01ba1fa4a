export class WordSearch {
  constructor(grid) {
    this.grid = grid;
  }

  find(words) {
    return Object.fromEntries(words.map((w) => [w, undefined]));
  }
}
