/**
 * The page's inline stylesheet (no url(), no @import: nothing is fetched). DejaVu comes first in the font
 * stacks: Debian's Chromium renders with it, so the reference screenshots do not depend on fontconfig's
 * choice; elsewhere the system fonts follow. Words never break inside codes, ids and rule names
 * (nowrap); only hashes and messages may break anywhere, and only where they would not fit.
 */
export const STYLE = `
:root { --mono: "DejaVu Sans Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; --fg: #1d232a; --muted: #5b6670; --line: #d8dde2; --bg: #fff; --alt: #f5f7f9; --bad: #b3261e; --warn: #8a5a00; --ok: #1e6b34; --hl: #fff2c2; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--alt); }
header h1 { margin: 0; font-size: 1.3em; }
.meta { margin: 2px 0 0; color: var(--muted); }
main { padding: 12px 20px 40px; max-width: 1400px; }
h2 { margin: 8px 0 12px; font-size: 1.2em; overflow-wrap: anywhere; }
h3 { margin: 20px 0 6px; font-size: 1.05em; }
h4 { margin: 12px 0 4px; font-size: 1em; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: var(--alt); font-weight: 600; }
td, dd, li, pre, h2, q, code { unicode-bidi: isolate; overflow-wrap: break-word; }
code, a.ev, a.loc, a.sub-link, .flag-code, .rule, .evidence a { white-space: nowrap; }
.test-name .seg { display: inline-block; }
table.submissions { font-size: 13px; }
table.submissions th, table.submissions td { padding: 3px 4px; }
table.submissions th { font-size: 12px; }
pre.msg, code.hash, .source-path { overflow-wrap: anywhere; }
.part { overflow-x: auto; }
tbody tr:nth-child(even) { background: #fafbfc; }
pre { margin: 0; white-space: pre-wrap; font: 12px/1.4 var(--mono); max-height: 24em; overflow: auto; }
code, .hash { font-family: var(--mono); font-size: 12px; }
code.hash { white-space: normal; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 4px 0 8px; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; }
.controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.controls input { flex: 0 1 320px; padding: 4px 6px; }
.shown { color: var(--muted); }
th button.sort { all: unset; cursor: pointer; display: block; width: 100%; }
th[aria-sort="ascending"] button.sort::after { content: " \\25B2"; }
th[aria-sort="descending"] button.sort::after { content: " \\25BC"; }
td[data-col="final"], td[data-col="correctness"], td[data-col="edge_cases"], td[data-col="style"], td[data-col="complexity"], td[data-col="tests"] { text-align: right; font-variant-numeric: tabular-nums; }
tr.flagged td:first-child { border-left: 4px solid var(--bad); }
.st-passed td:nth-child(3) { color: var(--ok); }
.st-failed td:nth-child(3), .st-error td:nth-child(3), .st-timeout td:nth-child(3) { color: var(--bad); font-weight: 600; }
tr.st-rejected td[data-col="status"], tr.st-error td[data-col="status"] { color: var(--bad); }
.sev-critical td:nth-child(2), li.sev-critical .sev { color: var(--bad); font-weight: 600; }
.sev-warning td:nth-child(2), li.sev-warning .sev { color: var(--warn); font-weight: 600; }
tr.over td { background: #fff0ee; }
.ctl { display: inline-block; margin: 0 1px; padding: 0 3px; border: 1px solid #e0a0a0; border-radius: 3px; background: #fdecea; color: var(--bad); font: 11px/1.3 var(--mono); }
.hl, .hl td { background: var(--hl) !important; outline: 2px solid #e0a800; }
a.ev, code.ev { font-family: var(--mono); font-size: 12px; }
a.missing { color: var(--bad); text-decoration: line-through; }
.claims li { margin: 4px 0; }
.claim.weakness .crit { color: var(--warn); }
.claim.strength .crit { color: var(--ok); }
.none { color: var(--muted); margin: 2px 0; }
#histogram svg { max-width: 100%; height: auto; }
#histogram .bar { fill: #4a78a8; }
#histogram .axis { stroke: #888; }
#histogram text { font-size: 11px; fill: var(--muted); }
#histogram text.count { fill: var(--fg); }
.back button.print { margin-left: 12px; font: inherit; padding: 1px 8px; }
.source-path { margin: 10px 0 2px; font: 600 12px/1.4 var(--mono); }
.src { border: 1px solid var(--line); background: #fbfcfd; overflow-x: auto; font: 12px/1.5 var(--mono); }
.src .line { display: flex; min-width: max-content; }
.src .line.has-notes { background: #fff8e1; }
.src .ln { flex: 0 0 3.6em; padding-right: 8px; text-align: right; color: var(--muted); border-right: 1px solid var(--line); user-select: none; }
.src .tx { padding-left: 8px; white-space: pre; unicode-bidi: normal; }
.src .notes { margin: 0 0 2px 3.6em; padding: 2px 8px; border-left: 3px solid #e0a800; background: #fff8e1; font: 13px/1.4 "DejaVu Sans", system-ui, sans-serif; position: sticky; left: 0; max-width: calc(100vw - 5em); }
.src .note { margin: 1px 0; }
.src .note.test, .src .note.policy, .src .note.lint-error { color: var(--bad); }
.src .note.fn { color: var(--muted); }
.src .note.over { color: var(--warn); font-weight: 600; }
.tk-kw { color: #8a2be2; }
.tk-str { color: #1e6b34; }
.tk-num { color: #0b5cad; }
.tk-com { color: #6a737d; font-style: italic; }
@media print {
  header .meta, .no-print, #overview, .controls { display: none !important; }
  body { font-size: 11px; }
  main { max-width: none; padding: 0 8px; }
  pre { max-height: none; overflow: visible; }
  .part, .src { overflow: visible; }
  .src .line { min-width: 0; }
  .src .tx { white-space: pre-wrap; overflow-wrap: anywhere; }
  .src .notes { position: static; max-width: none; }
  a { color: inherit; text-decoration: none; }
  .hl, .hl td { outline: none; background: none !important; }
}
`;
