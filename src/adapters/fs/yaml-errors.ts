import type { YAMLError } from 'yaml';

/**
 * A YAML syntax error as a person fixes it: `rubric.yaml:7:10: YAML: <what>`, then the offending line and a caret
 * under the column (the yaml library's own message ends in a colon before its excerpt, which one line cuts off).
 */
export function yamlErrorText(file: string, text: string, e: YAMLError): string {
  const what = (e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
  const pos = e.linePos?.[0];
  if (!pos) return `${file}: YAML: ${what}`;
  // eslint-disable-next-line no-control-regex -- a control character in the excerpt must not reach a terminal
  const line = (text.split(/\r?\n/)[pos.line - 1] ?? '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?');
  // The caret keeps the line's own tabs, so it stands under the column however wide a tab is shown.
  const pad = line.slice(0, Math.max(0, pos.col - 1)).replace(/[^\t]/g, ' ');
  return `${file}:${pos.line}:${pos.col}: YAML: ${what}\n    ${line}\n    ${pad}^`;
}
