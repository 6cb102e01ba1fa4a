// The rubric items of one report: what each item is worth, what was decided and by whom (the audited judge or
// an instructor's override, with who and why), and the quotes that checked out.
import { add, h, part, table } from './dom.js';
import { arr, fmt, obj, str, type Rec } from './util.js';

const quoteText = (q: Rec): string =>
  q.evidence
    ? `evidence ${str(q.evidence)}`
    : `${str(q.file)}:${fmt(q.start_line)}\u2013${fmt(q.end_line)} ${str(q.text)}`;

function decidedBy(i: Rec): string {
  if (i.source !== 'override') return 'judge (audited)';
  const o = obj(i.override);
  return `override by ${str(o.by)} (${str(o.at)}): ${str(o.why)}`;
}

/** Null when the report has no items. */
export function itemsPart(scores: Rec): HTMLElement | null {
  if (!scores.items) return null;
  const it = obj(scores.items);
  const p = part('items', 'Rubric items');
  add(
    p,
    h('p', 'items-delta', `The items moved the final score by ${fmt(it.delta)}.`),
    table(
      'items',
      ['Item', 'Criterion', 'Points', 'Decision', 'Awarded', 'Decided by', 'Why', 'Quotes'],
      arr(it.results)
        .map(obj)
        .map((i) => [
          `${str(i.id)}: ${str(i.description)}`,
          i.criterion ? str(i.criterion) : 'own',
          fmt(i.points),
          str(i.decision).replace(/_/g, ' '),
          fmt(i.awarded),
          decidedBy(i),
          str(i.reason),
          arr(i.quotes).map(obj).map(quoteText).join('\n'),
        ]),
    ).t,
  );
  return p;
}
