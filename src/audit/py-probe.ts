// Telling a surviving Python mutant apart from the reference: the seeds are the literal arguments the hidden pytest
// tests pass to the functions they import from the submission's entry module (tree-sitter's tree, the grammar the
// Python mutants use); the probe is one pytest test that calls the mutant (the submission's module) and the reference
// (the same file in a package of its own, `__evigrade_reference`) on every candidate, through the Python harness like
// any test, compares with `==` (an exception by its type and message), and fails at the first disagreement.
import type { Node } from 'web-tree-sitter';
import { parsePython, preparePythonParser } from '../adapters/analysis/python-parser.js';
import type { Json, Seed } from './seeds.js';

const NONE = Symbol('not a literal');
const kids = (n: Node): Node[] => n.children.filter((c): c is Node => c !== null);
const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null);

/** A string literal without prefix (or raw), escapes and interpolation; else NONE. */
function stringOf(n: Node): Json | typeof NONE {
  const start = kids(n)[0]?.text ?? '';
  if (!/^[rR]?('|"|'''|""")$/.test(start)) return NONE;
  const parts = kids(n).slice(1, -1);
  if (parts.some((p) => p.type !== 'string_content')) return NONE;
  return parts.map((p) => p.text).join('');
}

/** A JSON value written as Python literals (`-3`, `[1, 'a']`, `(1, 2)` as a list, `{'k': True}`), or NONE. */
function literalOf(n: Node): Json | typeof NONE {
  switch (n.type) {
    case 'integer':
    case 'float': {
      const v = Number(n.text.replace(/_/g, ''));
      return Number.isFinite(v) && (n.type === 'float' || Number.isSafeInteger(v)) ? v : NONE;
    }
    case 'true':
    case 'false':
      return n.type === 'true';
    case 'none':
      return null;
    case 'string':
      return stringOf(n);
    case 'unary_operator': {
      const v = literalOf(n.childForFieldName('argument')!);
      const op = n.childForFieldName('operator')?.text;
      return typeof v === 'number' && (op === '-' || op === '+') ? (op === '-' ? -v : v) : NONE;
    }
    case 'parenthesized_expression':
      return named(n).length === 1 ? literalOf(named(n)[0]!) : NONE;
    case 'list':
    case 'tuple': {
      const out = named(n)
        .filter((c) => c.type !== 'comment')
        .map(literalOf);
      return out.includes(NONE) ? NONE : (out as Json[]);
    }
    case 'dictionary': {
      const out: Record<string, Json> = {};
      for (const p of named(n).filter((c) => c.type !== 'comment')) {
        const k = p.type === 'pair' ? literalOf(p.childForFieldName('key')!) : NONE;
        const v = p.type === 'pair' ? literalOf(p.childForFieldName('value')!) : NONE;
        if (typeof k !== 'string' || v === NONE) return NONE;
        out[k] = v;
      }
      return out;
    }
    default:
      return NONE;
  }
}

function walk(n: Node, visit: (n: Node) => void): void {
  visit(n);
  for (const c of named(n)) walk(c, visit);
}

/** The names a test binds to the module's functions (`from m import f as g`: g → f) and the module's own aliases. */
function bindingsOf(root: Node, module: string): { fns: Map<string, string>; modules: Set<string> } {
  const fns = new Map<string, string>();
  const modules = new Set<string>();
  walk(root, (n) => {
    if (n.type === 'import_from_statement' && n.childForFieldName('module_name')?.text === module) {
      for (const c of n.childrenForFieldName('name')) {
        if (!c) continue;
        const name = c.type === 'aliased_import' ? c.childForFieldName('name')!.text : c.text;
        fns.set(c.type === 'aliased_import' ? c.childForFieldName('alias')!.text : name, name);
      }
    }
    if (n.type === 'import_statement')
      for (const c of n.childrenForFieldName('name')) {
        if (c?.type === 'dotted_name' && c.text === module) modules.add(module);
        if (c?.type === 'aliased_import' && c.childForFieldName('name')!.text === module)
          modules.add(c.childForFieldName('alias')!.text);
      }
  });
  return { fns, modules };
}

/** The function a call names (`f(…)` of an imported f, `m.f(…)` of the imported module), or null. */
function calleeOf(call: Node, b: ReturnType<typeof bindingsOf>): string | null {
  const f = call.childForFieldName('function');
  if (f?.type === 'identifier') return b.fns.get(f.text) ?? null;
  const object = f?.type === 'attribute' ? f.childForFieldName('object') : null;
  return object?.type === 'identifier' && b.modules.has(object.text) ? f!.childForFieldName('attribute')!.text : null;
}

/** Every call of the entry module's functions in the tests whose arguments are all literals (no keywords). */
export async function pySeedsOf(testSources: readonly string[], module: string): Promise<Seed[]> {
  await preparePythonParser();
  const seen = new Set<string>();
  const out: Seed[] = [];
  for (const source of testSources) {
    const tree = parsePython(source);
    try {
      const b = bindingsOf(tree.rootNode, module);
      walk(tree.rootNode, (n) => {
        const fn = n.type === 'call' ? calleeOf(n, b) : null;
        const argList = n.childForFieldName('arguments');
        if (!fn || argList?.type !== 'argument_list') return;
        const args = named(argList)
          .filter((a) => a.type !== 'comment')
          .map(literalOf);
        const key = JSON.stringify([fn, args]);
        if (args.includes(NONE) || seen.has(key)) return;
        seen.add(key);
        out.push({ fn, args: args as Json[] });
      });
    } finally {
      tree.delete();
    }
  }
  return out;
}

/** The module the entry names: `./pkg/sign.py` → `pkg.sign`. */
export const moduleOfEntry = (entry: string): string =>
  entry
    .replace(/^\.\//, '')
    .replace(/(\/__init__)?\.py$/, '')
    .replace(/\//g, '.');

/** A JSON value as Python writes it. */
export function pyLiteral(v: Json): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}: ${pyLiteral(x)}`)
    .join(', ')}}`;
}

export const PY_PROBE = 'test_evigrade_probe.py';

/** The probe: the mutant imported as the submission's module, the reference from the package beside it. */
export function pyProbeSource(module: string, refPackage: string, mark: string, inputs: readonly Seed[]): string {
  const list = JSON.stringify(JSON.stringify(inputs.map((s) => [s.fn, JSON.stringify(s.args)])));
  return `import importlib
import json

mutant = importlib.import_module(${JSON.stringify(module)})
reference = importlib.import_module(${JSON.stringify(`${refPackage}.${module}`)})
INPUTS = json.loads(${list})


def _run(f, args):
    try:
        return ('value', f(*args), None)
    except Exception as e:
        return ('threw', type(e).__name__, str(e))


def _plain(v, depth=0):
    # Only data compares across the two modules: an instance of the reference's class is never == the mutant's.
    if depth > 20:
        return False
    if v is None or type(v) in (bool, int, float, complex, str, bytes):
        return True
    if type(v) in (list, tuple, set, frozenset):
        return all(_plain(x, depth + 1) for x in v)
    if type(v) is dict:
        return all(_plain(k, depth + 1) and _plain(x, depth + 1) for k, x in v.items())
    return False


def _comparable(r, m):
    return all(o[0] == 'threw' or _plain(o[1]) for o in (r, m))


def _same(r, m):
    if r[0] != m[0]:
        return False
    if r[0] == 'threw':
        return r[1:] == m[1:]
    return bool(r[1] == m[1])


def _said(o):
    return (('raises %s: %s' % (o[1], o[2])) if o[0] == 'threw' else repr(o[1]))[:300]


def test_evigrade_probe():
    compared = 0
    for i, (name, args) in enumerate(INPUTS):
        f = getattr(reference, name, None)
        g = getattr(mutant, name, None)
        if not callable(f) or not callable(g):
            continue
        r = _run(f, json.loads(args))
        m = _run(g, json.loads(args))
        if not _comparable(r, m):
            continue
        compared += 1
        if not _same(r, m):
            raise AssertionError(${JSON.stringify(mark)} + json.dumps([i, _said(r), _said(m), r[0] == 'threw', m[0] == 'threw', r[1] if r[0] == 'threw' else None, r[2]]))
    if compared == 0:
        raise AssertionError('no input gave data (not objects) from both, so nothing was compared')
`;
}

/** A pytest test that the reference passes and the mutant fails. */
export function pyTest(call: string, fn: string, reference: string, threw: boolean, type: string, message: string) {
  const slug = call.slice(fn.length).replace(/\W+/g, '_').replace(/^_|_$/g, '').slice(0, 40);
  const name = `test_${fn}_${threw ? 'raises_' : ''}${slug}`;
  if (!threw) return `def ${name}():\n    assert ${call} == ${reference}\n`;
  const match = message ? `, match=${JSON.stringify(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)}` : '';
  return `import pytest\n\n\ndef ${name}():\n    with pytest.raises(${type}${match}):\n        ${call}\n`;
}
