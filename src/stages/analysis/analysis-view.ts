// The one source an analyser may read. Every comment keeps its delimiters, its length and its line breaks, but
// its words become `_`: no in-band directive (`eslint-disable`, `@ts-nocheck`, `@ts-ignore`, `@ts-expect-error`,
// `/// <reference>`, `# noqa`, `# type: ignore`, whatever a tool adds next) can act, and every line and column
// of the code is where it was, so findings point at the student's own file. Filler, not spaces: no trailing
// whitespace appears where a comment was. The analysis pool (adapters/analysis/pool.ts) is the one door into
// analysis and hands its threads views only; analysers take `AnalysisView`, which only this file makes.
import { silenceComments } from './python-source.js';
import { scannedComments } from './strip-comments.js';

declare const viewBrand: unique symbol;
/** Source with every comment silenced (positions kept); made only by `analysisView`. */
export type AnalysisView = string & { readonly [viewBrand]: true };

const LINE_BREAK = /[\r\n\u2028\u2029]/;

/** A JavaScript/TypeScript comment's text as filler: `//` or `/*`…`*\/` kept, line breaks kept. */
function silenced(comment: string): string {
  const block = comment.startsWith('/*');
  const inner = comment.slice(2, block && comment.endsWith('*/') && comment.length >= 4 ? -2 : undefined);
  const filled = [...inner].map((c) => (LINE_BREAK.test(c) ? c : '_'.repeat(c.length))).join('');
  return `${comment.slice(0, 2)}${filled}${block && comment.length >= 4 && comment.endsWith('*/') ? '*/' : ''}`;
}

function silenceJs(code: string): string {
  const parts: string[] = [];
  let done = 0;
  for (const [start, end] of scannedComments(code)) {
    if (start < done) continue;
    parts.push(code.slice(done, start), silenced(code.slice(start, end)));
    done = end;
  }
  parts.push(code.slice(done));
  return parts.join('');
}

/** The view every analyser reads of one file (by its path's language). */
export function analysisView(path: string, code: string): AnalysisView {
  return (path.endsWith('.py') ? silenceComments(code) : silenceJs(code)) as AnalysisView;
}
