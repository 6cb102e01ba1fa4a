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

/** 64 bits: finding another name with the same words and hash is out of reach (32 bits were not). */
const idHash = (s: string): string => sha256(s).slice(0, 16);

/**
 * An id the system makes: `_` (which no plain id may start with), ASCII words, a hash. Plain names and
 * generated ids therefore never meet, whatever a student calls a folder or an API `id`.
 */
export const generatedId = (words: string, hashed: string): string =>
  `_${slug(words).slice(0, 40).replace(/-+$/, '') || 'student'}-${idHash(hashed)}`;

/** A name the batch's own files take (`summary.json`): never a plain id. */
const RESERVED = /^summary$/i;

/** The id of one name: itself when already a safe ASCII id, else a generated id of its words and its hash. */
export function baseId(name: string): string {
  const nfc = name.normalize('NFC');
  return SAFE_ID.test(nfc) && !RESERVED.test(nfc) ? nfc : generatedId(nfc, nfc);
}

/** The id a name had before generated ids were marked (histories recorded before: see adapters/store/migrations.ts). */
export function legacyBaseId(name: string): string {
  const nfc = name.normalize('NFC');
  return SAFE_ID.test(nfc)
    ? nfc
    : `${slug(nfc).slice(0, 40).replace(/-+$/, '') || 'student'}-${sha256(nfc).slice(0, 8)}`;
}

type Named = { raw: string; name: string; problem: string | null; id: string };

/** Why each of a group of names that give one id is refused: every name of the group is named, none wins. */
function refuseClash(group: readonly Named[]): void {
  const label = (e: Named): string =>
    e.raw === e.name
      ? JSON.stringify(visible(e.name))
      : `${JSON.stringify(visible(e.name))} (${JSON.stringify(visible(e.raw))})`;
  const seen = new Map<string, number>();
  for (const e of group) {
    const others = group.filter((o) => o !== e).map(label);
    e.problem ??=
      `the name ${label(e)} and ${others.join(', ')} give one id ("${e.id}", case ignored), so none of them is ` +
      'graded: rename one of them';
    // A refused twin still needs an id of its own for its report: made from its raw entry, never from the order.
    const n = seen.get(e.raw) ?? 0;
    seen.set(e.raw, n + 1);
    e.id = generatedId(e.name, `clash\0${e.raw}\0${n}`);
  }
}

/**
 * Ids for a batch's names (`raw`: the entry as found, e.g. `bob.js`; `name`: the submission's name, `bob`).
 * Names whose ids meet case-insensitively (`Alice` and `alice`, an NFC and an NFD `José`, `bob/` and
 * `bob.js`) are all refused, each message naming the others: which one is the student's cannot be known,
 * and byte order must not decide who keeps an id.
 */
export function nameSubmissions(entries: readonly { raw: string; name: string }[]): NamedSubmission[] {
  const out: Named[] = entries.map((e) => ({
    raw: e.raw,
    name: e.name.normalize('NFC'),
    problem: nameProblem(e.name),
    id: baseId(e.name),
  }));
  const groups = new Map<string, Named[]>();
  for (const e of out) groups.set(e.id.toLowerCase(), [...(groups.get(e.id.toLowerCase()) ?? []), e]);
  for (const group of groups.values()) if (group.length > 1) refuseClash(group);
  return out.map(({ id, name, problem }) => ({ id, name, problem }));
}

/** One name alone (an API request's id). */
export const nameSubmission = (name: string): NamedSubmission =>
  nameSubmissions([{ raw: name, name }])[0] as NamedSubmission;
