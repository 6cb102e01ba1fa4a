/** The page's inline stylesheet (no url(), no @import: nothing is fetched). */
export const STYLE = `
:root { --fg: #1d232a; --muted: #5b6670; --line: #d8dde2; --bg: #fff; --alt: #f5f7f9; --bad: #b3261e; --warn: #8a5a00; --ok: #1e6b34; --hl: #fff2c2; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--alt); }
header h1 { margin: 0; font-size: 1.3em; }
.meta { margin: 2px 0 0; color: var(--muted); }
main { padding: 12px 20px 40px; max-width: 1400px; }
h2 { margin: 8px 0 12px; font-size: 1.2em; word-break: break-all; }
h3 { margin: 20px 0 6px; font-size: 1.05em; }
h4 { margin: 12px 0 4px; font-size: 1em; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: var(--alt); font-weight: 600; }
td, dd, li, pre, h2, q, code { unicode-bidi: isolate; overflow-wrap: anywhere; }
tbody tr:nth-child(even) { background: #fafbfc; }
pre { margin: 0; white-space: pre-wrap; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; max-height: 24em; overflow: auto; }
code, .hash { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
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
.ctl { display: inline-block; margin: 0 1px; padding: 0 3px; border: 1px solid #e0a0a0; border-radius: 3px; background: #fdecea; color: var(--bad); font: 11px/1.3 ui-monospace, Menlo, Consolas, monospace; }
.hl, .hl td { background: var(--hl) !important; outline: 2px solid #e0a800; }
a.ev { font-family: ui-monospace, Menlo, Consolas, monospace; }
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
`;
