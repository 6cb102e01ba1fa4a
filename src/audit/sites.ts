// A mutant as a replacement of one span of a reference file: what both languages' mutators produce.
import { sha256 } from '../util/hash.js';
import type { OperatorClass } from '../domain/audit.js';

export interface MutantSite {
  readonly id: string;
  readonly file: string;
  /** UTF-16 offsets into the file's text: [start, end) is replaced. */
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly operator: OperatorClass;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 0-based (line, column) → UTF-16 offset, for locations libraries report. */
export function positionsToOffset(text: string): (line: number, column: number) => number {
  const starts = lineStarts(text);
  return (line, column) => Math.min(text.length, (starts[line] ?? text.length) + column);
}

/** 1-based line and column of every offset, from a table of line starts. */
export function positions(text: string): (offset: number) => { line: number; column: number } {
  const starts = lineStarts(text);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  };
}

/**
 * Stable across runs and machines: the file, the span, the operator and the replacement (never an ordinal),
 * so a rubric's `audit.ignore` and two audits of the same reference name the same mutant.
 */
export const mutantId = (file: string, start: number, end: number, mutator: string, replacement: string): string =>
  `m-${sha256(`${file}\0${start}\0${end}\0${mutator}\0${replacement}`).slice(0, 12)}`;

export interface RawSite {
  readonly start: number;
  readonly end: number;
  readonly operator: OperatorClass;
  readonly mutator: string;
  readonly replacement: string;
}

/** Sites → mutants: positioned, named, without duplicates or no-op replacements, in source order. */
export function toMutants(file: string, text: string, raw: readonly RawSite[]): MutantSite[] {
  const at = positions(text);
  const seen = new Set<string>();
  const out: MutantSite[] = [];
  for (const r of raw) {
    const original = text.slice(r.start, r.end);
    if (original === r.replacement) continue;
    const id = mutantId(file, r.start, r.end, r.mutator, r.replacement);
    if (seen.has(id)) continue;
    seen.add(id);
    const s = at(r.start);
    const e = at(r.end);
    out.push({ id, file, ...r, original, line: s.line, column: s.column, endLine: e.line, endColumn: e.column });
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end || a.id.localeCompare(b.id));
}

/** The reference file's text with one mutant applied. */
export const applyMutant = (text: string, m: Pick<MutantSite, 'start' | 'end' | 'replacement'>): string =>
  text.slice(0, m.start) + m.replacement + text.slice(m.end);
