// Static metrics for one Python file from its tree-sitter syntax tree (the grammar runs as WebAssembly on the
// host; no Python): per function cyclomatic complexity as radon counts it, loop nesting (comprehensions are
// loops), direct recursion, length and parameters; file LOC; policy findings. Pure: the tree comes in, data
// goes out. One TreeCursor walk, no child arrays: nodes are materialised only where a name or an argument
// is read (definitions, calls, imports, match statements).
import type { Node, Tree, TreeCursor } from 'web-tree-sitter';
import type { FileMetrics } from '../../domain/analysis.js';
import { fileMetrics, type WalkedFunction } from './function-metrics.js';
import { pythonCodeLines, type PythonTrivia } from './python-source.js';
import { pythonPolicy, type CallSite, type ImportSite } from './python-policy.js';

interface Fn extends WalkedFunction {
  /** The bare name a direct recursive call uses (`f(…)`), or for a method the `self.name(…)` parts. */
  callName: string;
  receiver: string | null;
  parent: Fn | null;
}

/** What the nodes below a node are measured in; `fn` null: not counted anywhere (radon skips decorators, defaults, annotations). */
interface Ctx {
  depth: number;
  fn: Fn | null;
  loops: number;
  cls: string | null;
}

interface Walk {
  readonly functions: Fn[];
  readonly calls: CallSite[];
  readonly imports: ImportSite[];
  readonly moduleFn: Fn;
}

const COMPREHENSIONS = new Set([
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
/** One decision each, wherever they are counted (radon: If, IfExp, BoolOp per operator, For/While, except handlers, comprehension for/if, assert). */
const DECISIONS = new Set([
  'if_statement',
  'elif_clause',
  'conditional_expression',
  'boolean_operator',
  'for_statement',
  'while_statement',
  'except_clause',
  'for_in_clause',
  'assert_statement',
]);
const PARAMS_NOT_COUNTED = new Set(['keyword_separator', 'positional_separator', ',', '(', ')']);

export function measurePython(file: string, code: string, tree: Tree, trivia?: PythonTrivia): FileMetrics {
  const lastLine = code.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(code) ? 1 : 0);
  const moduleFn: Fn = {
    name: '<module>',
    callName: '',
    receiver: null,
    parent: null,
    line: 1,
    endLine: Math.max(1, lastLine),
    params: 0,
    cyclomatic: 1,
    maxLoopNesting: 0,
    recursive: false,
  };
  const walk: Walk = { functions: [], calls: [], imports: [], moduleFn };
  const cursor = tree.walk();
  try {
    walkTree(cursor, walk);
  } finally {
    cursor.delete();
  }
  const all = moduleFn.cyclomatic > 1 ? [moduleFn, ...walk.functions] : walk.functions;
  return fileMetrics(file, pythonCodeLines(code, trivia), all, pythonPolicy(walk.imports, walk.calls));
}

/** Depth-first over every node with one cursor; `types[d]` is the type of the node at depth d on the current path. */
function walkTree(cursor: TreeCursor, walk: Walk): void {
  const ctxs: Ctx[] = [{ depth: -1, fn: walk.moduleFn, loops: 0, cls: null }];
  const types: string[] = [];
  let depth = 0;
  for (;;) {
    while ((ctxs[ctxs.length - 1] as Ctx).depth >= depth) ctxs.pop();
    const type = cursor.nodeType;
    types[depth] = type;
    if (cursor.nodeIsNamed) enter(cursor, type, types[depth - 1] ?? '', depth, ctxs, walk);
    if (cursor.gotoFirstChild()) {
      depth++;
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return;
      depth--;
    }
  }
}

function enter(cursor: TreeCursor, type: string, parent: string, depth: number, ctxs: Ctx[], walk: Walk): void {
  const ctx = ctxs[ctxs.length - 1] as Ctx;
  const push = (c: Omit<Ctx, 'depth'> & { depth?: number }): void => void ctxs.push({ ...c, depth });
  if (type === 'function_definition')
    return push({ fn: newFunction(cursor.currentNode, ctx, walk), loops: 0, cls: null });
  if (type === 'class_definition')
    return push({ fn: walk.moduleFn, loops: 0, cls: cursor.currentNode.childForFieldName('name')?.text ?? '?' });
  if (type === 'call') noteCall(cursor.currentNode, ctx.fn, walk);
  else if (type === 'import_statement' || type === 'import_from_statement')
    walk.imports.push(importSite(cursor.currentNode));
  if (notCounted(cursor, type, parent)) return push({ ...ctx, fn: null });
  const fn = ctx.fn;
  if (fn === null) return;
  fn.cyclomatic += decisionPoints(cursor, type, parent);
  // radon counts an assert as one decision and does not look inside it.
  if (type === 'assert_statement') return push({ ...ctx, fn: null });
  const loops =
    type === 'for_statement' || type === 'while_statement'
      ? 1
      : COMPREHENSIONS.has(type)
        ? forClauses(cursor.currentNode)
        : 0;
  if (loops === 0) return;
  fn.maxLoopNesting = Math.max(fn.maxLoopNesting, ctx.loops + loops);
  push({ ...ctx, loops: ctx.loops + loops });
}

/** Decorators, parameters (defaults), return annotations and base classes: radon visits none of them. */
function notCounted(cursor: TreeCursor, type: string, parent: string): boolean {
  if (type === 'decorator') return true;
  if (parent === 'function_definition') return type === 'parameters' || cursor.currentFieldName === 'return_type';
  return parent === 'class_definition' && type === 'argument_list';
}

function decisionPoints(cursor: TreeCursor, type: string, parent: string): number {
  if (DECISIONS.has(type)) return 1;
  // A comprehension's `if`, not a `case` guard (radon counts no guard).
  if (type === 'if_clause') return parent === 'case_clause' ? 0 : 1;
  // `else` on a loop, and a try's `else` (radon: handlers + bool(orelse)).
  if (type === 'else_clause')
    return parent === 'for_statement' || parent === 'while_statement' || parent === 'try_statement' ? 1 : 0;
  if (type === 'match_statement') return matchDecisions(cursor.currentNode);
  return 0;
}

/** radon ≥ 6: one per `case`, less one when some case is irrefutable (`case _:` or a bare capture `case x:`). */
function matchDecisions(node: Node): number {
  const body = node.childForFieldName('body');
  let cases = 0;
  let irrefutable = false;
  for (let c = body?.firstNamedChild ?? null; c; c = c.nextNamedSibling) {
    if (c.type !== 'case_clause') continue;
    cases++;
    const patterns = c.namedChildren.filter((p) => p?.type === 'case_pattern');
    const only = patterns.length === 1 ? patterns[0] : null;
    if (
      only &&
      (only.text === '_' ||
        (only.namedChildCount === 1 &&
          only.firstNamedChild?.type === 'dotted_name' &&
          only.firstNamedChild.namedChildCount === 1))
    )
      irrefutable = true;
  }
  return Math.max(0, cases - (irrefutable ? 1 : 0));
}

function forClauses(node: Node): number {
  let n = 0;
  for (let c = node.firstNamedChild; c; c = c.nextNamedSibling) if (c.type === 'for_in_clause') n++;
  return n;
}

function newFunction(node: Node, ctx: Ctx, walk: Walk): Fn {
  const name = node.childForFieldName('name')?.text ?? '?';
  const params = node.childForFieldName('parameters');
  let count = 0;
  let first: string | null = null;
  for (let p = params?.firstNamedChild ?? null; p; p = p.nextNamedSibling) {
    if (PARAMS_NOT_COUNTED.has(p.type)) continue;
    count++;
    first ??= p.type === 'identifier' ? p.text : ((p.childForFieldName('name') ?? p.firstNamedChild)?.text ?? null);
  }
  const method = ctx.cls !== null;
  const fn: Fn = {
    name: method ? `${ctx.cls}.${name}` : name,
    callName: name,
    receiver: method ? first : null,
    parent: ctx.fn ?? walk.moduleFn,
    line: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    params: count,
    cyclomatic: 1,
    maxLoopNesting: 0,
    recursive: false,
  };
  walk.functions.push(fn);
  return fn;
}

/** The dotted name a call's callee spells (`os.path.join` → ['os','path','join']), or null for anything else. */
function dotted(node: Node | null): string[] | null {
  const parts: string[] = [];
  for (let n = node; n;) {
    if (n.type === 'identifier') return [n.text, ...parts.reverse()];
    if (n.type !== 'attribute') return null;
    parts.push(n.childForFieldName('attribute')?.text ?? '');
    n = n.childForFieldName('object');
  }
  return null;
}

function noteCall(node: Node, fn: Fn | null, walk: Walk): void {
  const callee = dotted(node.childForFieldName('function'));
  if (callee === null) return;
  const arg = node.childForFieldName('arguments')?.firstNamedChild ?? null;
  const literal =
    arg?.type === 'string' && !arg.namedChildren.some((c) => c?.type === 'interpolation')
      ? stringValue(arg.text)
      : null;
  walk.calls.push({
    callee,
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    firstArg: literal,
  });
  if (fn) noteRecursion(callee, fn);
}

/** The value of a plain (non-f, non-escaped) string literal, or null. */
function stringValue(text: string): string | null {
  const m = /^[rRuU]?('|")([^'"\\\n]*)\1$/.exec(text);
  return m ? (m[2] as string) : null;
}

/** `f(…)` inside (a function nested in) `f`, or `self.m(…)` inside method `m` whose first parameter is `self`. */
function noteRecursion(callee: string[], from: Fn): void {
  for (let f: Fn | null = from; f && f.parent !== null; f = f.parent) {
    const hit =
      f.receiver === null
        ? callee.length === 1 && callee[0] === f.callName
        : callee.length === 2 && callee[0] === f.receiver && callee[1] === f.callName;
    if (hit) {
      f.recursive = true;
      return;
    }
  }
}

function importSite(node: Node): ImportSite {
  const at = { line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
  const from = node.type === 'import_from_statement' ? (node.childForFieldName('module_name')?.text ?? '') : null;
  const names: { name: string; alias: string | null }[] = [];
  let star = false;
  for (let c = node.firstNamedChild; c; c = c.nextNamedSibling) {
    if (c.type === 'wildcard_import') star = true;
    if (from !== null && c.startIndex === node.childForFieldName('module_name')?.startIndex) continue;
    if (c.type === 'dotted_name') names.push({ name: c.text, alias: null });
    else if (c.type === 'aliased_import')
      names.push({ name: c.childForFieldName('name')?.text ?? '', alias: c.childForFieldName('alias')?.text ?? null });
  }
  return { from, names, star, ...at };
}
