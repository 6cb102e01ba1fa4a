// Python mutants over tree-sitter's syntax tree (the grammar analysis already loads): StrykerJS's operator classes
// in Python's syntax, plus Python's own faults (`/`↔`//`, `in`↔`not in`, slice bounds, exception types, returning
// the argument instead of a copy). Each rule looks at one node type and names spans to replace.
import type { Node } from 'web-tree-sitter';
import { parsePython, preparePythonParser } from '../adapters/analysis/python-parser.js';
import type { OperatorClass } from '../domain/audit.js';
import { toMutants, type MutantSite, type RawSite } from './sites.js';

type Emit = (node: Pick<Node, 'startIndex' | 'endIndex'>, operator: OperatorClass, mutator: string, to: string) => void;

const ARITHMETIC: Record<string, string[]> = {
  '+': ['-'],
  '-': ['+'],
  '*': ['/'],
  '/': ['//', '*'],
  '//': ['/'],
  '%': ['*'],
  '**': ['*'],
  '<<': ['>>'],
  '>>': ['<<'],
  '&': ['|'],
  '|': ['&'],
};
const AUGMENTED: Record<string, string[]> = {
  '+=': ['-='],
  '-=': ['+='],
  '*=': ['/='],
  '/=': ['//=', '*='],
  '//=': ['/='],
};
/** Boundary (`<`↔`<=`) and negation (`<`↔`>=`), as StrykerJS's EqualityOperator. */
const COMPARISON: Record<string, [OperatorClass, string][]> = {
  '<': [
    ['equality', '<='],
    ['equality', '>='],
  ],
  '<=': [
    ['equality', '<'],
    ['equality', '>'],
  ],
  '>': [
    ['equality', '>='],
    ['equality', '<='],
  ],
  '>=': [
    ['equality', '>'],
    ['equality', '<'],
  ],
  '==': [['equality', '!=']],
  '!=': [['equality', '==']],
  is: [['equality', 'is not']],
  'is not': [['equality', 'is']],
  in: [['membership', 'not in']],
  'not in': [['membership', 'in']],
};
/** Calls swapped for their mirror (StrykerJS's MethodExpression, in Python's names). */
const METHOD_SWAPS: Record<string, string> = {
  min: 'max',
  max: 'min',
  any: 'all',
  all: 'any',
  lower: 'upper',
  upper: 'lower',
  startswith: 'endswith',
  endswith: 'startswith',
  lstrip: 'rstrip',
  rstrip: 'lstrip',
  strip: 'lstrip',
  find: 'rfind',
  rfind: 'find',
  index: 'rindex',
  isupper: 'islower',
  islower: 'isupper',
  sorted: 'list',
  reversed: 'iter',
};
/** Calls that copy their one argument: the mutant returns the argument itself (aliasing the caller's object). */
const COPIES = new Set(['list', 'dict', 'set', 'copy.copy', 'copy.deepcopy']);

const kids = (n: Node): Node[] => n.children.filter((c): c is Node => c !== null);
const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null);

const isDocstring = (n: Node): boolean => {
  const stmt = n.parent;
  if (stmt?.type !== 'expression_statement' || stmt.namedChildCount !== 1) return false;
  const block = stmt.parent;
  return block !== null && (block.type === 'module' || block.type === 'block') && named(block)[0]?.id === stmt.id;
};

function operatorToken(n: Node): Node | null {
  return n.childForFieldName('operator');
}

const RULES: Record<string, (n: Node, emit: Emit) => void> = {
  binary_operator(n, emit) {
    const op = operatorToken(n);
    for (const to of (op && ARITHMETIC[op.type]) ?? []) if (op) emit(op, 'arithmetic', 'ArithmeticOperator', to);
  },
  augmented_assignment(n, emit) {
    const op = operatorToken(n);
    for (const to of (op && AUGMENTED[op.type]) ?? []) if (op) emit(op, 'assignment', 'AssignmentOperator', to);
  },
  comparison_operator(n, emit) {
    for (const c of kids(n)) {
      for (const [cls, to] of COMPARISON[c.type] ?? [])
        emit(c, cls, cls === 'membership' ? 'MembershipOperator' : 'EqualityOperator', to);
    }
  },
  boolean_operator(n, emit) {
    const op = operatorToken(n);
    if (op) emit(op, 'logical', 'LogicalOperator', op.type === 'and' ? 'or' : 'and');
  },
  not_operator(n, emit) {
    const arg = n.childForFieldName('argument');
    if (arg) emit(n, 'unary', 'UnaryOperator', arg.text);
  },
  unary_operator(n, emit) {
    const arg = n.childForFieldName('argument');
    if (arg && kids(n)[0]?.type === '-') emit(n, 'unary', 'UnaryOperator', arg.text);
  },
  true: (n, emit) => emit(n, 'boolean', 'BooleanLiteral', 'False'),
  false: (n, emit) => emit(n, 'boolean', 'BooleanLiteral', 'True'),
  integer(n, emit) {
    const v = Number(n.text.replace(/_/g, ''));
    if (!Number.isSafeInteger(v)) return;
    emit(n, 'numeric', 'NumericLiteral', String(v + 1));
    emit(n, 'numeric', 'NumericLiteral', v === 0 ? '-1' : String(v - 1));
  },
  string(n, emit) {
    if (isDocstring(n) || kids(n).some((c) => c.type === 'interpolation')) return;
    const start = kids(n)[0];
    const end = kids(n)[kids(n).length - 1];
    if (!start || !end || /[bB]/.test(start.text)) return;
    const empty = kids(n).length === 2;
    emit(
      { startIndex: start.endIndex, endIndex: end.startIndex },
      'string',
      'StringLiteral',
      empty ? 'Stryker was here!' : '',
    );
  },
  if_statement: conditionRule(true),
  elif_clause: conditionRule(true),
  while_statement: conditionRule(false),
  conditional_expression(n, emit) {
    const cond = named(n)[1];
    if (!cond) return;
    emit(cond, 'conditional', 'ConditionalExpression', 'True');
    emit(cond, 'conditional', 'ConditionalExpression', 'False');
  },
  block(n, emit) {
    // The body emptied (a docstring kept: it is not code); a class body is left, as StrykerJS leaves classes.
    const stmts = named(n).filter((c) => c.type !== 'comment');
    const first = stmts[0]?.type === 'expression_statement' && stmts[0].namedChildren[0]?.type === 'string' ? 1 : 0;
    const body = stmts.slice(first);
    const onlyPass = body.length === 1 && body[0]?.type === 'pass_statement';
    const from = body[0];
    const to = body[body.length - 1];
    if (from && to && !onlyPass && n.parent?.type !== 'class_definition')
      emit({ startIndex: from.startIndex, endIndex: to.endIndex }, 'block', 'BlockStatement', 'pass');
  },
  list: (n, emit) => void (n.namedChildCount > 0 && emit(n, 'array', 'ArrayDeclaration', '[]')),
  dictionary: (n, emit) => void (n.namedChildCount > 0 && emit(n, 'object', 'ObjectLiteral', '{}')),
  slice(n, emit) {
    // a[i:j] → a[:j] and a[i:]: an off-by-a-bound in what is kept (the step is left alone).
    const parts: (Node | null)[] = [null];
    for (const c of kids(n)) {
      if (c.type === ':') parts.push(null);
      else if (c.isNamed && parts[parts.length - 1] === null) parts[parts.length - 1] = c;
    }
    for (const bound of parts.slice(0, 2)) if (bound) emit(bound, 'slice', 'SliceBound', '');
  },
  subscript(n, emit) {
    // x[:] is a copy: the mutant hands back x itself.
    const s = n.childForFieldName('subscript');
    const value = n.childForFieldName('value');
    if (value && s?.type === 'slice' && s.namedChildCount === 0) emit(n, 'copy', 'ReturnArgument', value.text);
  },
  call: callRule,
  raise_statement(n, emit) {
    const ex = named(n)[0];
    const fn = ex?.type === 'call' ? ex.childForFieldName('function') : ex;
    if (fn?.type === 'identifier' && fn.text !== 'Exception') emit(fn, 'exception', 'ExceptionType', 'Exception');
  },
  except_clause(n, emit) {
    const t = named(n)[0];
    if (t?.type === 'identifier' && t.text !== 'Exception') emit(t, 'exception', 'ExceptionType', 'Exception');
  },
};

function conditionRule(alsoTrue: boolean): (n: Node, emit: Emit) => void {
  return (n, emit) => {
    const cond = n.childForFieldName('condition');
    if (!cond) return;
    if (alsoTrue) emit(cond, 'conditional', 'ConditionalExpression', 'True');
    emit(cond, 'conditional', 'ConditionalExpression', 'False');
  };
}

function callRule(n: Node, emit: Emit): void {
  const fn = n.childForFieldName('function');
  const args = n.childForFieldName('arguments');
  if (!fn || !args) return;
  const positional = named(args).filter((a) => a.type !== 'keyword_argument' && a.type !== 'comment');
  const name = fn.type === 'attribute' ? fn.childForFieldName('attribute') : fn.type === 'identifier' ? fn : null;
  const swap = name ? METHOD_SWAPS[name.text] : undefined;
  if (name && swap) emit(name, 'method', 'MethodExpression', swap);
  const only = positional[0];
  if (COPIES.has(fn.text) && positional.length === 1 && args.namedChildCount === 1 && only)
    emit(n, 'copy', 'ReturnArgument', only.text);
  const obj = fn.type === 'attribute' ? fn.childForFieldName('object') : null;
  if (obj && name?.text === 'copy' && args.namedChildCount === 0) emit(n, 'copy', 'ReturnArgument', obj.text);
}

function walk(node: Node, emit: Emit): void {
  RULES[node.type]?.(node, emit);
  for (const c of kids(node)) walk(c, emit);
}

/** Every mutant of one Python file (empty if it does not parse: a reference that parses is checked elsewhere). */
export async function pyMutants(file: string, text: string): Promise<MutantSite[]> {
  await preparePythonParser();
  const tree = parsePython(text);
  const raw: RawSite[] = [];
  try {
    walk(tree.rootNode, (node, operator, mutator, replacement) =>
      raw.push({ start: node.startIndex, end: node.endIndex, operator, mutator, replacement }),
    );
  } finally {
    tree.delete();
  }
  return toMutants(file, text, raw);
}
