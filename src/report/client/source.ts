/**
 * The submission's source with line numbers, highlighting and its evidence on its lines: lint findings,
 * function metrics, policy findings and the student frames of failing tests. Each note links to its
 * evidence row; each evidence row links back to the line (`#/s/<key>/f<file>n<line>`).
 */
import { add, h, link, put } from './dom.js';
import { highlight, langOf } from './highlight.js';
import { arr, obj, str, type Rec } from './util.js';

/** A note on one line; `rank` orders the notes of a line, most serious first. */
export interface Note {
  readonly path: string;
  readonly line: number;
  readonly eid: string;
  readonly rank: number;
  readonly cls: string;
  readonly text: string;
}

export interface SourceFile {
  readonly path: string;
  readonly text: string | null;
  readonly k: number;
}

export const sourceFiles = (sub: Rec): SourceFile[] =>
  arr(sub.files)
    .map(obj)
    .map((f, k) => ({ path: str(f.path), text: typeof f.text === 'string' ? f.text : null, k }));

/** `f<k>n<line>`: the anchor suffix of a line (alphanumeric, so the router accepts it). */
export const lineAnchor = (k: number, line: number): string => `f${k}n${line}`;

/** Fills the (empty) source part `p`: one box per file, each line with its id, tokens and notes. */
export function fillSource(
  p: HTMLElement,
  files: readonly SourceFile[],
  notes: readonly Note[],
  idPrefix: string,
  evHref: (eid: string) => string | null,
): HTMLElement {
  if (!files.length) return add(p, h('p', 'none', 'No files: the submission never reached grading.'));
  for (const f of files) {
    add(p, h('h4', 'source-path', f.path));
    if (f.text === null) {
      add(
        p,
        h('p', 'none', 'Not in this report (reports written before the source field carry only the file hashes).'),
      );
      continue;
    }
    const box = h('div', 'src');
    box.setAttribute('data-file', f.path);
    const lines = highlight(f.text, langOf(f.path));
    if (lines.length > 1 && !lines[lines.length - 1]?.length) lines.pop();
    const mine = notes.filter((n) => n.path === f.path);
    lines.forEach((tokens, j) => {
      const n = j + 1;
      const line = h('div', 'line');
      line.setAttribute('id', `${idPrefix}${lineAnchor(f.k, n)}`);
      line.setAttribute('data-line', String(n));
      const code = h('code', 'tx');
      for (const t of tokens) add(code, t.cls ? put(h('span', `tk-${t.cls}`), t.text) : put(h('span'), t.text));
      add(box, add(line, h('span', 'ln', String(n)), code));
      const here = mine.filter((x) => x.line === n).sort((a, b) => a.rank - b.rank);
      if (here.length) {
        line.classList.add('has-notes');
        const list = h('div', 'notes');
        for (const x of here) {
          const note = h('div', `note ${x.cls}`);
          note.setAttribute('data-evidence', x.eid);
          const href = evHref(x.eid);
          add(
            list,
            add(note, href ? link(href, x.eid, 'ev') : h('code', 'ev', x.eid), h('span', 'note-text', ` ${x.text}`)),
          );
        }
        add(box, list);
      }
    });
    // Notes on lines past the end (a stale or edited report) are still shown, under the file.
    const past = mine.filter((x) => x.line > lines.length);
    for (const x of past)
      add(
        box,
        add(h('div', `note ${x.cls}`), h('code', 'ev', x.eid), h('span', 'note-text', ` line ${x.line}: ${x.text}`)),
      );
    add(p, box);
  }
  return p;
}
