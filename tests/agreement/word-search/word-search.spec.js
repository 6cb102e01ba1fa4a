import WordSearch from './word-search';

describe('single line grids', () => {
  test('should accept an initial game grid', () => {
    const grid = ['jefblpepre'];
    const wordSearch = new WordSearch(grid);
    expect(wordSearch instanceof WordSearch).toEqual(true);
  });

  test('can locate a word at the start of the grid', () => {
    const wordSearch = new WordSearch(['clojurermt']);
    expect(wordSearch.find(['clojure'])).toEqual({ clojure: { start: [1, 1], end: [1, 7] } });
  });

  test('can locate a word at the end of the grid', () => {
    const wordSearch = new WordSearch(['mtclojurer']);
    expect(wordSearch.find(['clojure'])).toEqual({ clojure: { start: [1, 3], end: [1, 9] } });
  });
});

describe('multi line grids', () => {
  const grid = [
    'jefblpepre',
    'camdcimgtc',
    'oivokprjsm',
    'pbwasqroua',
    'rixilelhrs',
    'wolcqlirpc',
    'screeaumgr',
    'alxhpburyi',
    'jalaycalmp',
    'clojurermt',
  ];

  test('can locate words written top to bottom', () => {
    expect(new WordSearch(grid).find(['ecmascript'])).toEqual({ ecmascript: { start: [1, 10], end: [10, 10] } });
  });

  test('can locate words written right to left', () => {
    expect(new WordSearch(grid).find(['elixir'])).toEqual({ elixir: { start: [5, 6], end: [5, 1] } });
  });

  test('can locate words written bottom right to top left', () => {
    expect(new WordSearch(grid).find(['lua'])).toEqual({ lua: { start: [9, 8], end: [7, 6] } });
  });

  test('finds several words at once', () => {
    const found = new WordSearch(grid).find(['clojure', 'rust', 'java']);
    expect(Object.keys(found)).toHaveLength(3);
    expect(found).toMatchObject({ clojure: { start: [10, 1] } });
    expect(found.java).toEqual({ start: [1, 1], end: [4, 4] });
  });

  test('a word that is not there is undefined', () => {
    expect(new WordSearch(grid).find(['haskell'])).toEqual({ haskell: undefined });
  });

  test('a word that is not there has a key', () => {
    expect(new WordSearch(grid).find(['haskell'])).toStrictEqual({ haskell: undefined });
  });

  test('does not change the grid it was given', () => {
    const copy = [...grid];
    new WordSearch(copy).find(['clojure', 'lua']);
    expect(copy).toEqual(grid);
  });

  test('reports what it searched for', () => {
    const seen = jest.fn();
    new WordSearch(grid).find(['lua', 'haskell'], seen);
    expect(seen.mock.calls).toEqual([['lua', true], ['haskell', false]]);
  });
});
