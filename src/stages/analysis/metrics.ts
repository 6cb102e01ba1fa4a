// Static metrics for one submitted source file: per-function cyclomatic
// complexity, loop nesting and recursion, code-line count, and "policy"
// findings (APIs a graded submission should not need). Pure: no I/O, no
// globals; the only dependency is the parser.
//
// Every tree walk here uses an explicit stack, because submissions are
// untrusted and a deeply nested tree must not overflow the JS call stack.
import { isBuiltin } from 'node:module';
import { AST_NODE_TYPES as N, type TSESTree } from '@typescript-eslint/types';
import { estree } from './estree.js';

import type { FileMetrics, PolicyFinding } from '../../domain/analysis.js';
import { fileMetrics, type WalkedFunction } from './function-metrics.js';

export type { FileMetrics, FunctionMetrics, PolicyFinding } from '../../domain/analysis.js';

/** The code could not be analysed; `line` and `column` are 1-based. */
export class ParseFailure extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'ParseFailure';
  }
}

type Node = TSESTree.Node;
type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** A function being measured; `parent` is the lexically enclosing one. */
interface Fn extends WalkedFunction {
  name: string;
  /** Identifiers that refer to this function from inside it (its own id, the variable it is assigned to). */
  selfNames: string[];
  /** The key it is stored under on `this` (class/object methods, class fields). */
  methodName: string | null;
  arrow: boolean;
  parent: Fn | null;
  start: number;
}

/** Naming information a parent node leaves for the function it holds. */
interface Hint {
  name: string;
  selfName: string | null;
  methodName: string | null;
}
interface Frame {
  node: Node;
  fn: Fn;
  loops: number;
}
interface Walk {
  functions: Fn[];
  hints: Map<Node, Hint>;
  policy: PolicyFinding[];
}

const TOO_DEEP = 'too deeply nested to analyse';
const ANONYMOUS = '<anonymous>';
const PARSE_OPTIONS = { loc: true, range: true, comment: true, jsx: false } as const;

export function measureFile(file: string, code: string): FileMetrics {
  return guardDepth(() => measureParsed(file, code, parseOrFail(code)));
}

/** Measures an ESTree AST someone else already parsed (ESLint's), saving a second parse. */
export function measureAst(file: string, code: string, ast: TSESTree.Program): FileMetrics {
  return guardDepth(() => measureParsed(file, code, ast));
}

function guardDepth(fn: () => FileMetrics): FileMetrics {
  try {
    return fn();
  } catch (err) {
    // The parser is recursive: a few hundred nested brackets exhaust the stack.
    if (err instanceof RangeError) {
      throw new ParseFailure(/call stack/i.test(err.message) ? TOO_DEEP : `could not analyse: ${err.message}`, 1, 1);
    }
    throw err;
  }
}

function parseOrFail(code: string): TSESTree.Program {
  try {
    return estree().parse(code, PARSE_OPTIONS);
  } catch (err) {
    // TSError lines are 1-based but its columns are 0-based.
    if (err instanceof estree().TSError) throw new ParseFailure(err.message, err.lineNumber, err.column + 1);
    if (err instanceof RangeError) throw err; // measureFile() reports stack exhaustion
    // Whatever else the parser throws on untrusted input still means "does not parse".
    throw new ParseFailure(err instanceof Error ? err.message : String(err), 1, 1);
  }
}

function measureParsed(file: string, code: string, ast: TSESTree.Program): FileMetrics {
  const moduleFn = newFn('<module>', ast, null);
  // The pseudo-function spans the whole file, whatever trivia surrounds the code;
  // like an editor, a final line break does not open another line.
  const { end } = ast.loc;
  Object.assign(moduleFn, { start: -1, line: 1, endLine: end.column === 0 && end.line > 1 ? end.line - 1 : end.line });
  const walk: Walk = { functions: [], hints: new Map(), policy: [] };
  walkTree(ast, moduleFn, walk);
  // Top-level code is only worth reporting when it makes decisions.
  const all = moduleFn.cyclomatic > 1 ? [moduleFn, ...walk.functions] : walk.functions;
  return fileMetrics(
    file,
    countCodeLines(code, ignoredRanges(code, ast.comments ?? [])),
    all.sort((a, b) => a.start - b.start),
    walk.policy.sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule)),
  );
}

function newFn(name: string, node: Node, parent: Fn | null): Fn {
  return {
    name,
    selfNames: [],
    methodName: null,
    arrow: false,
    parent,
    start: node.range[0],
    line: node.loc.start.line,
    endLine: node.loc.end.line,
    params: 0,
    cyclomatic: 1,
    maxLoopNesting: 0,
    recursive: false,
  };
}

// ---------------------------------------------------------------- walking

function walkTree(root: Node, moduleFn: Fn, walk: Walk): void {
  const stack: Frame[] = [{ node: root, fn: moduleFn, loops: 0 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const inner = visit(frame, walk);
    const children = childrenOf(frame.node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] as Node, ...inner });
  }
}

/** Records what `node` contributes and returns the context its children are measured in. */
function visit({ node, fn, loops }: Frame, walk: Walk): { fn: Fn; loops: number } {
  if (isFunctionNode(node)) {
    const inner = functionFor(node, fn, walk.hints.get(node));
    walk.functions.push(inner);
    return { fn: inner, loops: 0 };
  }
  fn.cyclomatic += decisionPoints(node);
  noteNames(node, walk.hints);
  noteRecursion(node, fn);
  notePolicy(node, walk.policy);
  if (!isLoop(node)) return { fn, loops };
  fn.maxLoopNesting = Math.max(fn.maxLoopNesting, loops + 1);
  return { fn, loops: loops + 1 };
}

// Position and bookkeeping keys: never child nodes (and `parent` would loop).
const NOT_CHILDREN = new Set(['parent', 'loc', 'range', 'tokens', 'comments']);

/** Generic child enumeration, so TypeScript-only nodes need no visitor table. */
function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (NOT_CHILDREN.has(key) || typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value)) {
      if (isNode(value)) out.push(value);
      continue;
    }
    for (const item of value) if (isNode(item)) out.push(item);
  }
  return out;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function isFunctionNode(node: Node): node is FunctionNode {
  return (
    node.type === N.FunctionDeclaration || node.type === N.FunctionExpression || node.type === N.ArrowFunctionExpression
  );
}

function isLoop(node: Node): boolean {
  switch (node.type) {
    case N.ForStatement:
    case N.ForInStatement:
    case N.ForOfStatement:
    case N.WhileStatement:
    case N.DoWhileStatement:
      return true;
    default:
      return false;
  }
}

// ---------------------------------------------------------------- complexity

/** McCabe increments, node by node, as ESLint's `complexity` rule (classic variant) counts them. */
function decisionPoints(node: Node): number {
  switch (node.type) {
    case N.IfStatement:
    case N.ConditionalExpression:
    case N.CatchClause:
    case N.LogicalExpression:
    case N.ForStatement:
    case N.ForInStatement:
    case N.ForOfStatement:
    case N.WhileStatement:
    case N.DoWhileStatement:
    case N.AssignmentPattern: // default values, in parameters and destructuring alike
      return 1;
    case N.SwitchCase:
      return node.test ? 1 : 0;
    case N.AssignmentExpression:
      return node.operator === '&&=' || node.operator === '||=' || node.operator === '??=' ? 1 : 0;
    case N.MemberExpression:
    case N.CallExpression: // `a?.b` and `f?.()` branch too (ESLint >= 9)
      return node.optional ? 1 : 0;
    default:
      return 0;
  }
}

// ---------------------------------------------------------------- names

function functionFor(node: FunctionNode, parent: Fn, hint: Hint | undefined): Fn {
  const own = node.type !== N.ArrowFunctionExpression && node.id ? node.id.name : null;
  const fn = newFn(own ?? hint?.name ?? ANONYMOUS, node, parent);
  fn.selfNames = [own, hint?.selfName].filter((n): n is string => typeof n === 'string');
  fn.methodName = hint?.methodName ?? null;
  fn.arrow = node.type === N.ArrowFunctionExpression;
  fn.params = node.params.length;
  return fn;
}

/** Leaves a name for a function held by `node` (visited before the function itself). */
function noteNames(node: Node, hints: Map<Node, Hint>): void {
  switch (node.type) {
    case N.VariableDeclarator:
      if (node.id.type === N.Identifier && node.init) hint(hints, node.init, node.id.name, node.id.name, null);
      break;
    case N.AssignmentExpression:
      noteAssignmentName(node, hints);
      break;
    case N.MethodDefinition:
    case N.PropertyDefinition: {
      // A class-field arrow's `this` is the instance, so it counts as a method too.
      const key = keyName(node.key, node.computed);
      if (node.value) hint(hints, node.value, key ?? ANONYMOUS, null, key);
      break;
    }
    case N.Property: {
      const key = keyName(node.key, node.computed);
      // An arrow in an object literal does not see the object as `this`.
      const method = node.value.type === N.ArrowFunctionExpression ? null : key;
      hint(hints, node.value, key ?? ANONYMOUS, null, method);
      break;
    }
    default:
      break;
  }
}

function noteAssignmentName(node: TSESTree.AssignmentExpression, hints: Map<Node, Hint>): void {
  const { left, right } = node;
  if (left.type === N.Identifier) return hint(hints, right, left.name, left.name, null);
  if (left.type !== N.MemberExpression || left.computed || left.property.type !== N.Identifier) return;
  // `module.exports = function () {}` is not a function called "exports".
  if (left.object.type === N.Identifier && left.object.name === 'module' && left.property.name === 'exports') return;
  hint(hints, right, left.property.name, null, left.property.name);
}

function hint(
  hints: Map<Node, Hint>,
  target: Node,
  name: string,
  selfName: string | null,
  methodName: string | null,
): void {
  if (isFunctionNode(target)) hints.set(target, { name, selfName, methodName });
}

function keyName(key: Node, computed: boolean): string | null {
  if (key.type === N.PrivateIdentifier) return `#${key.name}`;
  if (key.type === N.Identifier && !computed) return key.name;
  if (key.type === N.Literal && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  return null;
}

// ---------------------------------------------------------------- recursion

/**
 * Direct recursion: `name(...)` marks the nearest enclosing function known by
 * that name (so a callback inside `walk` calling `walk` makes `walk`
 * recursive); `this.name(...)` marks the method whose `this` it is, looking
 * through arrows, which share their enclosing function's `this`.
 */
function noteRecursion(node: Node, from: Fn): void {
  if (node.type !== N.CallExpression) return;
  const { callee } = node;
  if (callee.type === N.Identifier) {
    const target = enclosing(from, (fn) => fn.selfNames.includes(callee.name) || 'continue');
    if (target) target.recursive = true;
    return;
  }
  if (callee.type !== N.MemberExpression || callee.object.type !== N.ThisExpression) return;
  const name = keyName(callee.property, callee.computed);
  const target = enclosing(from, (fn) => (name !== null && fn.methodName === name) || (fn.arrow ? 'continue' : false));
  if (target) target.recursive = true;
}

/** Walks outwards from `from`: `true` picks a function, `false` stops, 'continue' goes to the parent. */
function enclosing(from: Fn, test: (fn: Fn) => boolean | 'continue'): Fn | null {
  for (let fn: Fn | null = from; fn; fn = fn.parent) {
    const verdict = test(fn);
    if (verdict !== 'continue') return verdict ? fn : null;
  }
  return null;
}

// ---------------------------------------------------------------- policy

const MODULE_RULES = new Map<string, string>([
  ['child_process', 'policy.child_process'],
  ['fs', 'policy.fs'],
  ...['net', 'dgram', 'dns', 'tls', 'http', 'https', 'http2'].map((m): [string, string] => [m, 'policy.net']),
  ['worker_threads', 'policy.worker_threads'],
  ['cluster', 'policy.worker_threads'],
  ['vm', 'policy.vm'],
  ['inspector', 'policy.inspector'],
]);
const PROCESS_ENDERS = new Set(['exit', 'reallyExit', 'kill', 'abort']);

function notePolicy(node: Node, out: PolicyFinding[]): void {
  switch (node.type) {
    case N.ImportDeclaration:
      return flagModule(node.source.value, 'imports', node, out);
    case N.ExportAllDeclaration:
    case N.ExportNamedDeclaration:
      return node.source ? flagModule(node.source.value, 're-exports', node, out) : undefined;
    case N.TSImportEqualsDeclaration: {
      const ref = node.moduleReference;
      if (ref.type === N.TSExternalModuleReference) flagModule(ref.expression.value, 'requires', node, out);
      return;
    }
    case N.ImportExpression:
      return flagDynamicImport(node, out);
    case N.CallExpression:
      return flagCall(node, out);
    case N.NewExpression:
      if (node.callee.type === N.Identifier && node.callee.name === 'Function')
        out.push(finding('policy.eval', node, 'constructs new Function()'));
      return;
    default:
      return;
  }
}

function flagModule(specifier: string, verb: string, at: Node, out: PolicyFinding[]): void {
  const bare = specifier.startsWith('node:') ? specifier.slice('node:'.length) : specifier;
  const rule = MODULE_RULES.get(bare.split('/')[0] ?? '');
  if (rule) out.push(finding(rule, at, `${verb} "${specifier}"`));
}

function flagDynamicImport(node: TSESTree.ImportExpression, out: PolicyFinding[]): void {
  const specifier = staticString(node.source);
  if (specifier === null) {
    out.push(finding('policy.dynamic_import', node, 'dynamic import() with a computed specifier'));
    return;
  }
  flagModule(specifier, 'imports', node, out);
  if (isBuiltin(specifier))
    out.push(finding('policy.dynamic_import', node, `dynamic import() of node builtin "${specifier}"`));
}

function flagCall(node: TSESTree.CallExpression, out: PolicyFinding[]): void {
  const { callee } = node;
  if (callee.type === N.Identifier) {
    const first = node.arguments[0];
    const specifier = first ? staticString(first) : null;
    if (callee.name === 'require' && specifier !== null) flagModule(specifier, 'requires', node, out);
    if (callee.name === 'eval' || callee.name === 'Function')
      out.push(finding('policy.eval', node, `calls ${callee.name}()`));
    // The global fetch reaches the network without importing anything.
    if (callee.name === 'fetch') out.push(finding('policy.net', node, 'calls fetch()'));
    return;
  }
  if (callee.type !== N.MemberExpression || callee.object.type !== N.Identifier || callee.object.name !== 'process')
    return;
  const member = keyName(callee.property, callee.computed);
  if (member !== null && PROCESS_ENDERS.has(member))
    out.push(finding('policy.process_exit', node, `calls process.${member}()`));
}

/** A string known without running the code: a literal or a template without substitutions. */
function staticString(node: Node): string | null {
  if (node.type === N.Literal && typeof node.value === 'string') return node.value;
  if (node.type === N.TemplateLiteral && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  return null;
}

function finding(rule: string, at: Node, message: string): PolicyFinding {
  return { rule, line: at.loc.start.line, column: at.loc.start.column + 1, message };
}

// ---------------------------------------------------------------- lines of code

/** Comment ranges plus a hashbang line, which the parser accepts but does not list as a comment. */
function ignoredRanges(code: string, comments: readonly TSESTree.Comment[]): Array<readonly [number, number]> {
  const ranges: Array<readonly [number, number]> = comments.map((c) => c.range);
  if (code.startsWith('#!')) {
    const end = code.search(/[\r\n\u2028\u2029]/);
    ranges.unshift([0, end === -1 ? code.length : end]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** Lines holding anything but whitespace and comments; line breaks as the parser counts them. */
function countCodeLines(code: string, ignored: ReadonlyArray<readonly [number, number]>): number {
  const codeLines = new Set<number>();
  let line = 1;
  let next = 0; // first ignored range that does not end before the current offset
  for (let i = 0; i < code.length; i++) {
    const ch = code[i] as string;
    if (ch === '\n' || ch === '\u2028' || ch === '\u2029' || (ch === '\r' && code[i + 1] !== '\n')) {
      line++;
      continue;
    }
    while (next < ignored.length && (ignored[next] as readonly [number, number])[1] <= i) next++;
    const range = ignored[next];
    if (range && range[0] <= i) continue;
    if (!/\s/.test(ch)) codeLines.add(line);
  }
  return codeLines.size;
}
