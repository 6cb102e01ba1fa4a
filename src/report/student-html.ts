import type { StudentReport, StudentTest } from '../domain/student.js';
import { escapeHtml, htmlPage, markControls } from './html.js';
import { STUDENT_STYLE } from './student-style.js';

// The page a student reads: static HTML rendered from the student view alone (never from a report), with no
// script at all and nothing to fetch. Every string is escaped text; pure.

/** No script, nothing fetched: only the page's own inline style. */
export const STUDENT_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const t = (s: string): string => escapeHtml(markControls(s));
const num = (v: number | null): string => (v === null ? 'not measured' : String(v));

const STATUS_WORD: Record<StudentTest['status'], string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  timeout: 'timed out',
  skipped: 'skipped',
};

function scores(v: StudentReport): string {
  if (v.notice !== null) return `<p class="notice">${t(v.notice)}</p>`;
  if (v.scores === null) return `<p class="notice">${t(v.scoresWithheld ?? 'Scores are not shown.')}</p>`;
  const s = v.scores;
  const rows: [string, number | null][] = [
    ['Correctness', s.correctness],
    ['Edge cases', s.edge_cases],
    ['Style', s.style],
    ['Complexity', s.complexity],
  ];
  return [
    `<p class="final"><span class="big">${t(num(s.final))}</span> / 10</p>`,
    `<dl class="criteria">${rows.map(([k, x]) => `<div><dt>${k}</dt><dd>${t(num(x))}</dd></div>`).join('')}</dl>`,
  ].join('\n');
}

/** What a visible test printed: stdout, then stderr, each labelled; or why it is not shown. */
function printed(o: StudentTest['output']): string {
  if (!o) return '';
  if (o.withheld !== null) return `<p class="meta">${t(o.withheld)}</p>`;
  const block = (label: string, text: string): string =>
    text ? `<p class="out-label">${label}</p><pre class="out">${t(text)}</pre>` : '';
  const cut = o.truncated ? '<p class="meta">Only the start of its output is kept.</p>' : '';
  return `<div class="printed">${block('Your output', o.stdout)}${block('Your error output', o.stderr)}${cut}</div>`;
}

function testCard(x: StudentTest): string {
  const pts = x.maxPoints === null ? '' : `<span class="pts">${x.points ?? 0}/${x.maxPoints}</span>`;
  const body = [
    x.message !== null ? `<pre class="msg">${t(x.message)}</pre>` : '',
    printed(x.output ?? null),
    x.hint !== null ? `<p class="hint"><strong>Hint:</strong> ${t(x.hint)}</p>` : '',
  ].join('');
  return [
    `<li class="test ${x.status}${x.shown === 'hidden' ? ' hidden-test' : ''}">`,
    `<div class="test-head"><span class="badge ${x.status}">${STATUS_WORD[x.status]}</span>`,
    `<span class="test-title">${x.number}. ${t(x.title)}</span>${pts}</div>`,
    body,
    '</li>',
  ].join('');
}

function tests(v: StudentReport): string {
  if (v.tests.length === 0) return '';
  const passed = v.tests.filter((x) => x.status === 'passed').length;
  const hidden = v.tests.filter((x) => x.shown === 'hidden').length;
  const note = hidden ? ` (${hidden} hidden: you see their outcome, not their content)` : '';
  return `<section><h2>Tests</h2><p class="meta">${passed} of ${v.tests.length} passed${note}.</p><ol class="tests">${v.tests.map(testCard).join('')}</ol></section>`;
}

function evidence(v: StudentReport): string {
  const parts: string[] = [];
  if (v.events.length)
    parts.push(
      `<section><h2>What stopped your code</h2><ul>${v.events.map((e) => `<li>${t(e.text)}</li>`).join('')}</ul></section>`,
    );
  if (v.lint.length)
    parts.push(
      `<section><h2>Style findings</h2><ul class="findings">${v.lint
        .map(
          (l) =>
            `<li><code>${t(l.file)}:${l.line}:${l.column}</code> <span class="sev ${l.severity}">${l.severity}</span> ${t(l.message)} <code class="rule">${t(l.rule)}</code></li>`,
        )
        .join('')}</ul></section>`,
    );
  if (v.functions.length)
    parts.push(
      `<section><h2>Functions</h2><ul class="findings">${v.functions
        .map(
          (f) =>
            `<li${f.overLimit ? ' class="over"' : ''}><code>${t(f.name)}</code> <code>${t(f.file)}:${f.line}</code> cyclomatic ${f.cyclomatic}, loop nesting ${f.maxLoopNesting}${f.overLimit ? ' — over the limit' : ''}</li>`,
        )
        .join('')}</ul></section>`,
    );
  if (v.comments)
    parts.push(
      `<section><h2>Reviewer’s comments</h2><p>${t(v.comments.summary)}</p><ul>${v.comments.points
        .map((p) => `<li class="${p.polarity}">${t(p.text)}</li>`)
        .join('')}</ul></section>`,
    );
  else if (v.commentsWithheld)
    parts.push(`<section><h2>Reviewer’s comments</h2><p class="meta">${t(v.commentsWithheld)}</p></section>`);
  return parts.join('\n');
}

export function renderStudentHtml(v: StudentReport): string {
  const who = v.submission.name ?? v.submission.id;
  return htmlPage({ csp: STUDENT_CSP, title: `${t(v.assignment.title)} — ${t(who)}`, style: STUDENT_STYLE }, [
    `<header><h1>${t(v.assignment.title)}</h1><p class="meta">${t(who)} · ${v.submission.files.map((f) => `<code>${t(f)}</code>`).join(' ')}</p></header>`,
    '<main>',
    scores(v),
    tests(v),
    evidence(v),
    '</main>',
  ]);
}
