import type { Report } from '../../domain/report.js';

/** What changed between two gradings of a submission, one line per difference, in report terms. Pure. */
export function gradingDiff(a: Report, b: Report): string[] {
  const out: string[] = [];
  const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);
  if (a.rubric.sha256 !== b.rubric.sha256)
    out.push(`rubric: ${a.rubric.sha256.slice(0, 12)} -> ${b.rubric.sha256.slice(0, 12)}`);
  if (a.submission.sha256 !== b.submission.sha256)
    out.push(`submission files: ${a.submission.sha256.slice(0, 12)} -> ${b.submission.sha256.slice(0, 12)}`);
  for (const k of Object.keys({ ...a.tools, ...b.tools }).sort()) {
    if (a.tools[k] !== b.tools[k]) out.push(`tool ${k}: ${a.tools[k] ?? '(none)'} -> ${b.tools[k] ?? '(none)'}`);
  }
  const before = new Map(a.tests.map((t) => [t.name, t.status]));
  for (const t of b.tests) {
    const was = before.get(t.name);
    if (was !== t.status) out.push(`test "${t.name}": ${was ?? '(absent)'} -> ${t.status}`);
    before.delete(t.name);
  }
  for (const [name, status] of before) out.push(`test "${name}": ${status} -> (absent)`);
  const codes = (r: Report): Set<string> => new Set(r.flags.map((f) => f.code));
  const [fa, fb] = [codes(a), codes(b)];
  for (const c of [...fb].filter((x) => !fa.has(x)).sort()) out.push(`flag raised: ${c}`);
  for (const c of [...fa].filter((x) => !fb.has(x)).sort()) out.push(`flag cleared: ${c}`);
  if (a.evidence.hash !== b.evidence.hash)
    out.push(`evidence: ${a.evidence.hash.slice(7, 19)} -> ${b.evidence.hash.slice(7, 19)}`);
  if (!same(a.scores.deterministic, b.scores.deterministic))
    out.push(
      `deterministic scores: ${JSON.stringify(a.scores.deterministic)} -> ${JSON.stringify(b.scores.deterministic)}`,
    );
  if (a.judge.model !== b.judge.model || a.judge.status !== b.judge.status)
    out.push(
      `judge: ${a.judge.status} ${a.judge.model ?? ''} -> ${b.judge.status} ${b.judge.model ?? ''}`.replace(/ +/g, ' '),
    );
  if (a.scores.final !== b.scores.final) out.push(`final: ${a.scores.final} -> ${b.scores.final}`);
  return out;
}
