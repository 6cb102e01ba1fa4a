// Helper module: lowercased words, apostrophes kept only between letters/digits.
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;

export const tokenize = (text) => text.toLowerCase().match(WORD) ?? [];
