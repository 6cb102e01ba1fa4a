class WordSearch {
  constructor(grid) {
    this.rows = grid;
    this.cols = grid[0].split('').map((_, c) => grid.map((row) => row[c]).join(''));
  }

  find(words, report) {
    return words.reduce((acc, word) => {
      let found;
      this.rows.forEach((row, r) => {
        const c = row.indexOf(word);
        if (c >= 0 && !found) found = { start: [r + 1, c + 1], end: [r + 1, c + word.length] };
      });
      this.cols.forEach((col, c) => {
        const r = col.indexOf(word);
        if (r >= 0 && !found) found = { start: [r + 1, c + 1], end: [r + word.length, c + 1] };
      });
      if (report) report(word, found !== undefined);
      return { ...acc, [word]: found };
    }, {});
  }
}

module.exports = WordSearch;
