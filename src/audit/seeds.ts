// Pure: the arguments the hidden tests pass to the submission's functions, read from the tests' own source (calls of
// a name imported from the submission whose arguments are all literals), and fast-check arbitraries for inputs near
// them: the seeds of the search for an input on which a surviving mutant and the reference disagree.
import { parse, type Node } from 'acorn';
import fc from 'fast-check';
import { importedNames } from '../stages/run/imports.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** A function of the submission and one list of arguments a hidden test calls it with. */
export interface Seed {
  readonly fn: string;
  readonly args: readonly Json[];
}

type AnyNode = Node & Record<string, unknown>;
const NONE = Symbol('not a literal');

/** A JSON value written as literals (`-3`, `[1, 'a']`, `{ k: true }`), or NONE. */
function literalOf(n: AnyNode): Json | typeof NONE {
  switch (n.type) {
    case 'Literal': {
      const v = n.value as unknown;
      return v === null || ['string', 'boolean'].includes(typeof v) || (typeof v === 'number' && Number.isFinite(v))
        ? (v as Json)
        : NONE;
    }
    case 'UnaryExpression': {
      const v = literalOf(n.argument as AnyNode);
      return typeof v === 'number' && (n.operator === '-' || n.operator === '+') ? (n.operator === '-' ? -v : v) : NONE;
    }
    case 'TemplateLiteral': {
      const q = n.quasis as { value: { cooked: string | null } }[];
      return (n.expressions as unknown[]).length === 0 && q[0]?.value.cooked != null ? q[0].value.cooked : NONE;
    }
    case 'ArrayExpression': {
      const out = (n.elements as (AnyNode | null)[]).map((e) =>
        e && e.type !== 'SpreadElement' ? literalOf(e) : NONE,
      );
      return out.includes(NONE) ? NONE : (out as Json[]);
    }
    case 'ObjectExpression':
      return objectOf(n.properties as AnyNode[]);
    default:
      return NONE;
  }
}

function objectOf(props: readonly AnyNode[]): Json | typeof NONE {
  const out: Record<string, Json> = {};
  for (const p of props) {
    const key = p.key as AnyNode | undefined;
    if (p.type !== 'Property' || p.computed || p.kind !== 'init' || !key) return NONE;
    const v = literalOf(p.value as AnyNode);
    if (v === NONE) return NONE;
    out[key.type === 'Identifier' ? (key.name as string) : String(key.value)] = v;
  }
  return out;
}

function parsed(source: string): AnyNode | null {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return parse(source, {
        ecmaVersion: 'latest',
        sourceType,
        allowAwaitOutsideFunction: true,
      }) as unknown as AnyNode;
    } catch {
      // the other source type, then nothing: a test that does not parse gives no seeds
    }
  }
  return null;
}

function walk(node: unknown, visit: (n: AnyNode) => void): void {
  if (Array.isArray(node)) for (const c of node) walk(c, visit);
  else if (node && typeof node === 'object' && typeof (node as AnyNode).type === 'string') {
    visit(node as AnyNode);
    for (const [k, v] of Object.entries(node)) if (k !== 'loc') walk(v, visit);
  }
}

/** Names bound by `const { a, b: c } = require('./x')` (CommonJS tests), beside the ES imports importedNames reads. */
function requiredNames(tree: AnyNode | null): string[] {
  const out: string[] = [];
  walk(tree, (n) => {
    const init = n.init as AnyNode | undefined;
    const id = n.id as AnyNode | undefined;
    if (n.type !== 'VariableDeclarator' || init?.type !== 'CallExpression' || id?.type !== 'ObjectPattern') return;
    if ((init.callee as AnyNode).type !== 'Identifier' || (init.callee as AnyNode).name !== 'require') return;
    for (const p of id.properties as AnyNode[]) {
      const v = p.value as AnyNode | undefined;
      if (p.type === 'Property' && v?.type === 'Identifier') out.push(v.name as string);
    }
  });
  return out;
}

/** Every literal a name is bound to in the file (`const grid = [[1, 2]]`, `grid = [[1, 2]]` in a beforeEach). */
function literalBindings(tree: AnyNode | null): Map<string, Json[]> {
  const out = new Map<string, Json[]>();
  walk(tree, (n) => {
    const [id, value] =
      n.type === 'VariableDeclarator'
        ? [n.id as AnyNode, n.init as AnyNode | null]
        : n.type === 'AssignmentExpression' && n.operator === '='
          ? [n.left as AnyNode, n.right as AnyNode]
          : [null, null];
    if (id?.type !== 'Identifier' || !value) return;
    const v = literalOf(value);
    if (v !== NONE) out.set(id.name as string, [...(out.get(id.name as string) ?? []), v]);
  });
  return out;
}

/** An argument's possible values: a literal, or every literal its name is bound to; NONE otherwise. */
function valuesOf(n: AnyNode, bound: Map<string, Json[]>): Json[] | typeof NONE {
  if (n.type === 'Identifier') return bound.get(n.name as string) ?? NONE;
  const v = literalOf(n);
  return v === NONE ? NONE : [v];
}

/** Every argument list of every combination of the values each argument may have (a few at most). */
const combinations = (options: readonly Json[][]): Json[][] =>
  options.reduce<Json[][]>((acc, vs) => acc.flatMap((a) => vs.slice(0, 4).map((v) => [...a, v])), [[]]);

/**
 * Every call `f(...)` of a name the tests import whose arguments are literals, or names bound to literals in the
 * file, once per distinct argument list.
 */
export function seedsOf(testSources: readonly string[]): Seed[] {
  const trees = testSources.map(parsed);
  const names = new Set([...importedNames(testSources), ...trees.flatMap(requiredNames)]);
  const seen = new Set<string>();
  const out: Seed[] = [];
  for (const tree of trees) {
    const bound = literalBindings(tree);
    walk(tree, (n) => {
      const callee = n.callee as AnyNode | undefined;
      if (n.type !== 'CallExpression' || callee?.type !== 'Identifier' || !names.has(callee.name as string)) return;
      const options = (n.arguments as AnyNode[]).map((a) => valuesOf(a, bound));
      if (options.includes(NONE)) return;
      for (const args of combinations(options as Json[][])) {
        const key = JSON.stringify([callee.name, args]);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ fn: callee.name as string, args });
      }
    });
  }
  return out;
}

/** Round numbers of every scale (boundaries sit there: 100, 400, 1000) and neighbours of the seed. */
function nearInt(v: number): fc.Arbitrary<Json> {
  const span = Math.max(10, Math.abs(v));
  return fc.oneof(
    fc.integer({ min: v - 10, max: v + 10 }),
    fc.integer({ min: -2 * span, max: 2 * span }),
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -30, max: 30 })).map(([e, k]) => k * 10 ** e),
  );
}

/** Values of the seed's shape, near it: the seed itself among them. */
export function near(v: Json): fc.Arbitrary<Json> {
  if (typeof v === 'number')
    return fc.oneof(
      fc.constant(v),
      Number.isInteger(v) ? nearInt(v) : fc.double({ min: v - 10, max: v + 10, noNaN: true }),
    );
  if (typeof v === 'string') {
    const chars = [...new Set([...v, 'a', 'A', '0', ' '])];
    return fc.oneof(
      fc.constant(v),
      fc.array(fc.constantFrom(...chars), { maxLength: v.length + 3 }).map((c) => c.join('')),
    );
  }
  if (typeof v === 'boolean') return fc.boolean();
  if (v === null) return fc.constant(null);
  if (Array.isArray(v)) {
    const item = v.length > 0 ? fc.oneof(...v.map(near)) : fc.integer({ min: -10, max: 10 });
    return fc.oneof(fc.constant(v), fc.array(item, { maxLength: v.length + 3 }));
  }
  return fc.record(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, near(x)])));
}

/** Up to `budget` distinct argument lists per function: the seeds first, then fast-check's samples near them. */
export function candidates(seeds: readonly Seed[], budget: number, seed = 42): Seed[] {
  const out: Seed[] = [];
  for (const fn of [...new Set(seeds.map((s) => s.fn))]) {
    const mine = seeds.filter((s) => s.fn === fn);
    const seen = new Set(mine.map((s) => JSON.stringify(s.args)));
    const own = mine.slice(0, budget);
    const arb = fc.oneof(...mine.map((s) => fc.tuple(...s.args.map(near))));
    const extra = fc
      .sample(arb, { numRuns: 4 * budget, seed })
      .filter((args) => !seen.has(JSON.stringify(args)) && seen.add(JSON.stringify(args)))
      .slice(0, budget - own.length)
      .map((args) => ({ fn, args }));
    out.push(...own, ...extra);
  }
  return out;
}
