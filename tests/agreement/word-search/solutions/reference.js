const DIRECTIONS = [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, -1], [1, -1], [-1, 1]];

class WordSearch {
  constructor(grid) {
    this.grid = grid;
  }

  locate(word) {
    const rows = this.grid.length;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < this.grid[r].length; c++) {
        for (const [dr, dc] of DIRECTIONS) {
          let i = 0;
          while (i < word.length && this.grid[r + dr * i]?.[c + dc * i] === word[i]) i++;
          if (i === word.length) {
            const last = word.length - 1;
            return { start: [r + 1, c + 1], end: [r + dr * last + 1, c + dc * last + 1] };
          }
        }
      }
    }
    return undefined;
  }

  find(words, onSearched = () => {}) {
    const result = {};
    for (const word of words) {
      result[word] = this.locate(word);
      onSearched(word, result[word] !== undefined);
    }
    return result;
  }
}

export default WordSearch;
