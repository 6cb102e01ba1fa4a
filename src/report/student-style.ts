/**
 * The student page's stylesheet: one column that reads on a 375 px phone and stays a readable width on a
 * desktop; messages wrap instead of scrolling sideways. DejaVu first, as on the instructor page, so the
 * reference screenshots do not depend on fontconfig's choice. No url(), no @import.
 */
export const STUDENT_STYLE = `
:root { --mono: "DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; --fg: #1d232a; --muted: #5b6670; --line: #d8dde2; --alt: #f5f7f9; --bad: #b3261e; --warn: #8a5a00; --ok: #1e6b34; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #fff; }
header { padding: 14px max(16px, calc((100% - 828px) / 2)); border-bottom: 1px solid var(--line); background: var(--alt); }
header h1 { margin: 0; font-size: 1.35em; overflow-wrap: anywhere; }
main { padding: 8px 16px 40px; max-width: 860px; margin: 0 auto; }
h2 { font-size: 1.15em; margin: 22px 0 8px; }
.meta { color: var(--muted); margin: 4px 0; overflow-wrap: anywhere; }
code { font-family: var(--mono); font-size: 0.9em; overflow-wrap: anywhere; }
.final { margin: 14px 0 4px; font-size: 1.1em; }
.final .big { font-size: 2.2em; font-weight: 700; }
.criteria { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0 0; }
.criteria div { flex: 1 1 130px; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.criteria dt { color: var(--muted); font-size: 0.85em; }
.criteria dd { margin: 0; font-weight: 600; }
.notice { padding: 10px 12px; border-left: 4px solid var(--warn); background: #fff8e6; }
ol.tests { list-style: none; padding: 0; margin: 0; }
li.test { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 0 0 8px; }
.test-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 10px; }
.test-title { flex: 1 1 200px; overflow-wrap: anywhere; }
.hidden-test .test-title { color: var(--muted); font-style: italic; }
.pts { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; }
.badge { display: inline-block; min-width: 5.5em; text-align: center; border-radius: 4px; padding: 0 6px; font-size: 0.85em; font-weight: 600; color: #fff; white-space: nowrap; }
.badge.passed { background: var(--ok); }
.badge.failed, .badge.error, .badge.timeout { background: var(--bad); }
.badge.skipped { background: var(--muted); }
pre.msg { font-family: var(--mono); font-size: 0.85em; background: var(--alt); padding: 8px; margin: 8px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; border-radius: 4px; }
.out-label { margin: 8px 0 0; font-size: 0.85em; color: var(--muted); }
pre.out { font-family: var(--mono); font-size: 0.85em; padding: 6px 8px; margin: 2px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; border-left: 3px solid var(--line); }
.hint { margin: 8px 0 0; padding: 6px 10px; background: #eef5ff; border-radius: 4px; overflow-wrap: anywhere; }
ul.findings { padding-left: 1.2em; }
ul.findings li { margin: 0 0 6px; overflow-wrap: anywhere; }
.sev { font-size: 0.8em; font-weight: 600; text-transform: uppercase; }
.sev.error, li.over { color: var(--bad); }
.sev.warning { color: var(--warn); }
li.strength::marker { content: "+ "; color: var(--ok); }
li.weakness::marker { content: "− "; color: var(--bad); }
`;
