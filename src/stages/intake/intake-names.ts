// Submission names (a folder's or file's name, an archive's top folder, an API id) are people's names: any
// printable Unicode is one (o'brien, José Núñez, 李雷, ana 🎉). Only what breaks a path or hides text from a
// reader is refused. Each name gets a safe id beside it: the report's file name, the URL segment, the history
// key — ASCII, so no file system folds two students into one by case or Unicode normalisation.
import { SAFE_ID } from '../../domain/submission.js';
import { isIgnoredName } from './intake.js';
import { HIDDEN_CHARS_SOURCE } from '../../domain/text.js';
import { sha256 } from '../../util/hash.js';

const MAX_NAME = 200;
const HIDDEN = new RegExp(HIDDEN_CHARS_SOURCE, 'u');
// Beyond the hidden list: every control and format character (tabs, line breaks, other invisibles),
// private-use, unassigned code points and lone surrogates.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u;

export interface NamedSubmission {
  /** Safe as a file name and URL segment on every file system; unique (case-insensitively) within a batch. */
  readonly id: string;
  /** The name as given, NFC-normalised: what people read in reports, CSV and exports. */
  readonly name: string;
  /** Why the name is refused (the submission is rejected with INTAKE_PATH_INVALID), or null. */
  readonly problem: string | null;
}

/** Not a student: hidden entries and tool litter beside the submissions (`.DS_Store`, `__MACOSX`, `node_modules`). */
export const notASubmission = (entry: string): boolean => entry.startsWith('.') || isIgnoredName(entry);

/** `U+202E` for each character a reader would not see. */
export const visible = (s: string): string =>
  [...s]
    .map((c) =>
      HIDDEN.test(c) || UNPRINTABLE.test(c)
        ? `<U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}>`
        : c,
    )
    .join('');

/** Why a name cannot be a submission's, or null when it can. */
export function nameProblem(name: string): string | null {
  const shown = JSON.stringify(visible(name));
  if (name.trim() === '') return 'the name is empty';
  if (name === '.' || name === '..' || name.startsWith('.'))
    return `the name ${shown} starts with "." (a hidden or parent folder)`;
  if (/[/\\]/.test(name)) return `the name ${shown} contains a path separator`;
  if (HIDDEN.test(name) || UNPRINTABLE.test(name))
    return `the name ${shown} contains a control, invisible or bidi character`;
  if ([...name].length > MAX_NAME) return `the name is longer than ${MAX_NAME} characters`;
  return null;
}

/** ASCII words of a name, lower case, "-" between them: `José Núñez` → `jose-nunez` (LMS ids use it too). */
export function slug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const shortHash = (s: string): string => sha256(s).slice(0, 8);

/** The id of one name: itself when already a safe ASCII id, else its slug and a hash of the name. */
export function baseId(name: string): string {
  const nfc = name.normalize('NFC');
  return SAFE_ID.test(nfc) ? nfc : `${slug(nfc).slice(0, 40).replace(/-+$/, '') || 'student'}-${shortHash(nfc)}`;
}

/**
 * Ids for a batch's names (`raw`: the entry as found, e.g. `bob.js`; `name`: the submission's name, `bob`).
 * Names whose ids meet case-insensitively (`Alice` and `alice`, an NFC and an NFD `José`, `bob/` and
 * `bob.js`) are told apart by a hash of the raw entry, all but the first in code-unit order: the same
 * folder always gives the same ids.
 */
export function nameSubmissions(entries: readonly { raw: string; name: string }[]): NamedSubmission[] {
  const out = entries.map((e) => ({
    raw: e.raw,
    name: e.name.normalize('NFC'),
    problem: nameProblem(e.name),
    id: baseId(e.name),
  }));
  const order = out
    .map((_, i) => i)
    .sort((a, b) => ((out[a] as { raw: string }).raw < (out[b] as { raw: string }).raw ? -1 : 1));
  const taken = new Set<string>();
  for (const i of order) {
    const e = out[i] as (typeof out)[number];
    let id = e.id;
    for (let n = 0; taken.has(id.toLowerCase()); n++) id = `${e.id.slice(0, 54)}-${shortHash(`${e.raw}#${n}`)}`;
    taken.add(id.toLowerCase());
    e.id = id;
  }
  return out.map(({ id, name, problem }) => ({ id, name, problem }));
}

/** One name alone (an API request's id). */
export const nameSubmission = (name: string): NamedSubmission =>
  nameSubmissions([{ raw: name, name }])[0] as NamedSubmission;
