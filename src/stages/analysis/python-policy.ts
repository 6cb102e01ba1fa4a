// Policy findings for Python: APIs a graded submission should not need, for a human to look at (the sandbox,
// not this list, is the boundary). Codes are the JavaScript ones where the meaning is the same
// (`policy.child_process`, `policy.net`, `policy.eval`, `policy.dynamic_import`, `policy.process_exit`,
// `policy.fs`); `policy.ctypes` is Python's own (native code). Calls are resolved through import aliases
// (`import os as o; o.system(…)`, `from os import system as s; s(…)`, `from os import *`), flow-insensitively.
import type { PolicyFinding } from '../../domain/analysis.js';

export interface ImportSite {
  from: string | null;
  names: { name: string; alias: string | null }[];
  star: boolean;
  line: number;
  column: number;
}
export interface CallSite {
  callee: string[];
  line: number;
  column: number;
  firstArg: string | null;
}

/** Modules whose import is itself the finding (a submodule counts as its package: `http.client`, `multiprocessing.pool`). */
const MODULES: ReadonlyArray<readonly [string, string]> = [
  ...['subprocess', 'multiprocessing', 'pty'].map((m) => [m, 'policy.child_process'] as const),
  ...[
    'socket',
    'ssl',
    'socketserver',
    'http.client',
    'http.server',
    'urllib.request',
    'ftplib',
    'smtplib',
    'poplib',
    'imaplib',
    'telnetlib',
    'xmlrpc',
  ].map((m) => [m, 'policy.net'] as const),
  ...['ctypes', 'cffi'].map((m) => [m, 'policy.ctypes'] as const),
];

const DYNAMIC_IMPORT = /^(builtins\.__import__|importlib\.(import_module|__import__))$/;
const SPAWN = /^os\.(system|popen|fork|forkpty|posix_spawnp?|spawn[lv]p?e?|exec[lv]p?e?)$/;
const CALLS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^builtins\.(eval|exec|compile)$/, 'policy.eval'],
  [DYNAMIC_IMPORT, 'policy.dynamic_import'],
  [SPAWN, 'policy.child_process'],
  [/^pty\.spawn$/, 'policy.child_process'],
  [/^(os\.(_exit|kill|killpg|abort)|sys\.exit)$/, 'policy.process_exit'],
];
const OPENERS = /^(builtins\.open|io\.open|os\.open|codecs\.open)$/;
const BUILTINS = new Set(['eval', 'exec', 'compile', 'open', '__import__']);

export const moduleRule = (mod: string): string | null =>
  MODULES.find(([m]) => mod === m || mod.startsWith(`${m}.`))?.[1] ?? null;

/** What each local name stands for, from every import in the file (`o` → `os`, `s` → `os.system`). */
function aliases(imports: readonly ImportSite[]): { names: Map<string, string>; stars: string[] } {
  const names = new Map<string, string>();
  const stars: string[] = [];
  for (const imp of imports) {
    if (imp.star && imp.from) stars.push(imp.from);
    for (const { name, alias } of imp.names) {
      if (imp.from !== null) names.set(alias ?? name, `${imp.from}.${name}`);
      else if (alias) names.set(alias, name);
      else names.set(name.split('.')[0] as string, name.split('.')[0] as string);
    }
  }
  return { names, stars };
}

/** The qualified names a call may mean (more than one only through star imports). */
function resolve(callee: readonly string[], names: Map<string, string>, stars: readonly string[]): string[] {
  const [head, ...rest] = callee as [string, ...string[]];
  const tail = rest.length ? `.${rest.join('.')}` : '';
  const bound = names.get(head);
  if (bound !== undefined) return [`${bound}${tail}`];
  return [
    ...(BUILTINS.has(head) && rest.length === 0 ? [`builtins.${head}`] : []),
    ...stars.map((m) => `${m}.${head}${tail}`),
  ];
}

function importFindings(imp: ImportSite): PolicyFinding[] {
  const mods =
    imp.from !== null ? [imp.from, ...imp.names.map((n) => `${imp.from}.${n.name}`)] : imp.names.map((n) => n.name);
  const out: PolicyFinding[] = [];
  const seen = new Set<string>();
  for (const mod of mods) {
    const rule = moduleRule(mod);
    // `from http import client` and `from urllib import request` name the module in two parts.
    if (rule && !seen.has(rule)) {
      seen.add(rule);
      out.push({ rule, line: imp.line, column: imp.column, message: `imports "${mod}"` });
    }
  }
  return out;
}

function callFindings(call: CallSite, names: Map<string, string>, stars: readonly string[]): PolicyFinding[] {
  const spelled = call.callee.join('.');
  const out: PolicyFinding[] = [];
  for (const q of resolve(call.callee, names, stars)) {
    const as = q === spelled || q === `builtins.${spelled}` ? '' : ` (as ${spelled})`;
    const at = { line: call.line, column: call.column };
    const shown = q.startsWith('builtins.') ? q.slice('builtins.'.length) : q;
    for (const [re, rule] of CALLS) if (re.test(q)) out.push({ rule, ...at, message: `calls ${shown}()${as}` });
    if (DYNAMIC_IMPORT.test(q) && call.firstArg !== null) {
      const rule = moduleRule(call.firstArg);
      if (rule) out.push({ rule, ...at, message: `imports "${call.firstArg}" dynamically` });
    }
    if (OPENERS.test(q) && call.firstArg?.startsWith('/'))
      out.push({ rule: 'policy.fs', ...at, message: `opens the absolute path "${call.firstArg}"${as}` });
  }
  return out;
}

export function pythonPolicy(imports: readonly ImportSite[], calls: readonly CallSite[]): PolicyFinding[] {
  const { names, stars } = aliases(imports);
  const out = [...imports.flatMap(importFindings), ...calls.flatMap((c) => callFindings(c, names, stars))];
  return out.sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
}
