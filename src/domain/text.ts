/**
 * Characters that hide or reorder text for a reader: C0 and C1 controls (tab and line breaks excepted), the
 * soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width characters, bidi embeddings,
 * overrides and isolates, line and paragraph separators, invisible operators and the byte-order mark. One list
 * for the report page, its browser code and the judge prompt, which show them as markers, never interpret them.
 */
export const HIDDEN_CHARS_SOURCE =
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2028\\u2029\\u2060-\\u2064\\u2066-\\u206F\\uFEFF]';

/** A fresh global regular expression over HIDDEN_CHARS_SOURCE (global expressions carry state: one per use site). */
export const hiddenChars = (): RegExp => new RegExp(HIDDEN_CHARS_SOURCE, 'g');
