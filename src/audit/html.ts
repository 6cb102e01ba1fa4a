// audit.html: "wrong programs your tests accept" — each survivor as a diff of the reference at its line, grouped by
// operator class; the reference's source with uncovered lines marked; the flaky tests. One self-contained page.
import type { AuditMutant, AuditReport } from '../domain/audit.js';
import { positionsToOffset } from './sites.js';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The reference's lines of a mutant, before and after. */
export function mutantDiff(source: string, m: AuditMutant): { before: string[]; after: string[] } {
  const lines = source.split('\n');
  const at = positionsToOffset(source);
  const from = at(m.line - 1, 0);
  const start = at(m.line - 1, m.column - 1);
  const end = at(m.endLine - 1, m.endColumn - 1);
  const lineEnd = source.indexOf('\n', end);
  const to = lineEnd < 0 ? source.length : lineEnd;
  return {
    before: lines.slice(m.line - 1, m.endLine),
    after: (source.slice(from, start) + m.replacement + source.slice(end, to)).split('\n'),
  };
}

function survivorBlock(m: AuditMutant, source: string): string {
  const d = mutantDiff(source, m);
  const rows = [
    ...d.before.map((l, i) => `<div class="del"><span class="ln">${m.line + i}</span>- ${esc(l)}</div>`),
    ...d.after.map((l) => `<div class="add"><span class="ln"></span>+ ${esc(l)}</div>`),
  ].join('');
  const cov =
    m.covered === false
      ? ' <span class="tag uncov">no test runs this line</span>'
      : m.covered === true
        ? ' <span class="tag weak">tests run this line but accept the change</span>'
        : '';
  return `<div class="mutant" id="${m.id}"><div class="head"><code>${m.id}</code> ${esc(m.file)}:${m.line} · ${esc(m.mutator)}${cov}</div><pre>${rows}</pre></div>`;
}

function survivors(audit: AuditReport, sources: Readonly<Record<string, string>>): string {
  const alive = audit.mutants.filter((m) => m.status === 'survived');
  if (alive.length === 0) return '<p>No mutant survived: every wrong program made here fails some hidden test.</p>';
  const groups = [...new Set(alive.map((m) => m.operator))];
  return groups
    .map((op) => {
      const of = alive.filter((m) => m.operator === op);
      return `<h3>${esc(op)} (${of.length})</h3>${of.map((m) => survivorBlock(m, sources[m.file] ?? '')).join('')}`;
    })
    .join('');
}

const LEGEND =
  '<p><span class="uncov">&nbsp;no hidden test runs this line&nbsp;</span> <span class="weak">&nbsp;tests run this line, and a wrong version of it still passes&nbsp;</span></p>';

function sourceView(audit: AuditReport, sources: Readonly<Record<string, string>>): string {
  if (!audit.coverage.measured) return `<p>${esc(audit.coverage.note)}</p>`;
  const files = audit.coverage.files
    .map((f) => {
      const un = new Set(f.uncovered);
      const weak = new Set(f.survivedCovered);
      const rows = (sources[f.file] ?? '')
        .split('\n')
        .map((l, i) => {
          const cls = un.has(i + 1) ? 'uncov' : weak.has(i + 1) ? 'weak' : '';
          return `<div class="${cls}"><span class="ln">${i + 1}</span>${esc(l)}</div>`;
        })
        .join('');
      return `<h3>${esc(f.file)}: ${f.linesCovered} of ${f.linesTotal} lines run</h3><pre>${rows}</pre>`;
    })
    .join('');
  return `${LEGEND}${files}<p class="note">${esc(audit.coverage.note)}</p>`;
}

function flakyView(audit: AuditReport): string {
  if (audit.flaky.length === 0)
    return `<p>No test changed its verdict over ${audit.reference.runs} reference runs.</p>`;
  return `<table><tr><th>test</th><th>outcomes</th></tr>${audit.flaky.map((f) => `<tr><td>${esc(f.test)}</td><td>${esc(f.outcomes.join(', '))}</td></tr>`).join('')}</table>`;
}

function distinguishingView(audit: AuditReport): string {
  if (audit.distinguishing.length === 0) return '';
  return `<h2>Tests you could add</h2>${audit.distinguishing.map((d) => `<div class="mutant"><div class="head">kills <a href="#${d.mutant}"><code>${d.mutant}</code></a>: ${esc(d.function)}(${esc(d.input)}) is ${esc(d.reference)} on the reference, ${esc(d.mutantOutput)} on the mutant</div><pre>${esc(d.test)}</pre></div>`).join('')}`;
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:2em;max-width:70em;color:#222}pre{background:#f7f7f7;padding:.5em;overflow:auto}
.del{background:#fde8e8}.add{background:#e6f6e6}.uncov{background:#fff3c4}.weak{background:#ffd9b3}.note{color:#666}.ln{display:inline-block;width:3em;color:#888;user-select:none}
.mutant{margin:1em 0;border:1px solid #ddd;border-radius:4px}.head{padding:.3em .6em;background:#f0f0f0}.tag{background:#fff3c4;padding:0 .3em}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}`;

export function auditHtml(audit: AuditReport, sources: Readonly<Record<string, string>>): string {
  const c = audit.counts;
  const score = audit.score === null ? 'n/a' : `${Math.round(audit.score * 1000) / 10}%`;
  const ops = audit.byOperator
    .map((o) => `<tr><td>${o.operator}</td><td>${o.total}</td><td>${o.killed}</td><td>${o.survived}</td></tr>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Audit of ${esc(audit.rubric.id)}</title><style>${STYLE}</style></head><body>
<h1>Audit of the rubric ${esc(audit.rubric.id)}</h1>
<p>Mutation score <b>${score}</b>: ${c.killed} killed, ${c.survived} survived, ${c.timeout} timed out, ${c.error} errors, ${c.ignored} ignored, of ${c.total} mutants of the reference (sandbox ${esc(audit.sandbox)}).</p>
<table><tr><th>operator class</th><th>mutants</th><th>killed</th><th>survived</th></tr>${ops}</table>
<h2>Wrong programs your tests accept</h2>${survivors(audit, sources)}
${distinguishingView(audit)}
<h2>Reference lines no hidden test runs, and lines run but not checked</h2>${sourceView(audit, sources)}
<h2>Flaky tests</h2>${flakyView(audit)}
</body></html>`;
}
