// A submission without the rubric's entry file is rejected at intake, naming the file expected and what
// was there: graded, it would fail every test with "Cannot find module '/job/sub/leap'", which tells the
// student nothing about what to rename.
import { EvigradeError } from '../domain/errors.js';
import { languageOf } from '../domain/languages.js';
import type { Submission } from '../domain/submission.js';

const SHOWN = 5;

/** The submission paths that satisfy the entry (`./leap` → `leap.js`, `leap/index.js`, … ). */
export function entryCandidates(entry: string, language: string): string[] {
  const base = entry.replace(/^\.\//, '');
  // What the harness resolves an entry to (sandbox/harness/realm.cjs, ENTRY_EXTENSIONS; Python's import); TypeScript before stripping.
  return languageOf(language).entrySuffixes.map((s) => `${base}${s}`);
}

/** Throws INTAKE_ENTRY_MISSING when no file of the submission is one the entry resolves to. */
export function requireEntry(sub: Submission, entry: string, language: string): void {
  const candidates = entryCandidates(entry, language);
  if (sub.files.some((f) => candidates.includes(f.path))) return;
  const names = sub.files.map((f) => f.path);
  const found = names.length > SHOWN ? `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more` : names.join(', ');
  const base = entry.replace(/^\.\//, '');
  const expected = /\.[a-z]+$/.test(base) ? base : `${base}${languageOf(language).entrySuffix}`;
  throw new EvigradeError('INTAKE_ENTRY_MISSING', `submission "${sub.id}": the rubric's entry "${entry}" needs ${expected} at the top of the submission; found ${found || 'no file'}`, { submission: sub.id });
}
