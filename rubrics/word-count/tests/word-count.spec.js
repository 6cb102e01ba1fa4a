// node:test style (ESM), as in exercism's "word-count" exercise.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countWords } from './word-count';

describe('countWords', () => {
  it('counts one word', () => {
    assert.deepEqual(countWords('word'), { word: 1 });
  });

  it('counts one of each word', () => {
    assert.deepEqual(countWords('one of each'), { one: 1, of: 1, each: 1 });
  });

  it('counts multiple occurrences', () => {
    assert.deepEqual(countWords('one fish two fish red fish blue fish'), { one: 1, fish: 4, two: 1, red: 1, blue: 1 });
  });

  it('handles comma-separated words and newlines', () => {
    assert.deepEqual(countWords('one,two,\nthree'), { one: 1, two: 1, three: 1 });
  });

  it('ignores punctuation', () => {
    assert.deepEqual(countWords('car: carpet as java: javascript!!&@$%^&'), { car: 1, carpet: 1, as: 1, java: 1, javascript: 1 });
  });

  it('counts numbers as words', () => {
    assert.deepEqual(countWords('testing, 1, 2 testing'), { testing: 2, 1: 1, 2: 1 });
  });

  it('normalises case', () => {
    assert.deepEqual(countWords('go Go GO Stop stop'), { go: 3, stop: 2 });
  });

  it('keeps apostrophes inside words', () => {
    assert.deepEqual(countWords("First: don't laugh. Then: don't cry. You're getting it."), {
      first: 1, "don't": 2, laugh: 1, then: 1, cry: 1, "you're": 1, getting: 1, it: 1,
    });
  });

  it('ignores repeated whitespace and tabs', () => {
    assert.deepEqual(countWords(' multiple   whitespaces\t here '), { multiple: 1, whitespaces: 1, here: 1 });
  });

  describe('edge cases', () => {
    it('returns an empty object for an empty string', () => {
      assert.deepEqual(countWords(''), {});
    });

    it('returns an empty object when there is only punctuation', () => {
      assert.deepEqual(countWords('!!! ... ,;: --- ???'), {});
    });

    it('counts words with non-ASCII letters', () => {
      assert.deepEqual(countWords('¡Hola! ¿Qué tal? Привет, привет. Ünïcödé'), { hola: 1, qué: 1, tal: 1, привет: 2, ünïcödé: 1 });
    });

    it('strips quotes around words but keeps inner apostrophes', () => {
      assert.deepEqual(countWords("Joe can't tell between 'large' and large, or \"can't\" and 'can't'."), {
        joe: 1, "can't": 3, tell: 1, between: 1, large: 2, and: 2, or: 1,
      });
    });

    it('handles words named like Object.prototype properties', () => {
      assert.deepEqual(countWords('constructor toString constructor'), { constructor: 2, tostring: 1 });
    });
  });
});
