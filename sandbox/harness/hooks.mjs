// ESM loader hooks (run on Node's hooks thread, out of reach of student code):
// hidden test files are served from memory, never from disk; test-framework
// imports map onto the harness; extensionless relative imports resolve the way
// Jest users expect; introspection modules are refused.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let cfg = { virtual: {}, mode: 'run', stubNames: [], rootUrl: 'file:///job/sub/' };

export function initialize(data) {
  cfg = data;
}

const FRAMEWORK = new Map([
  ['@jest/globals', 'evigrade:jest-globals'],
  ['vitest', 'evigrade:jest-globals'],
  ['node:test', 'evigrade:node-test'],
]);
const BLOCKED = new Set(['inspector', 'node:inspector', 'inspector/promises', 'node:inspector/promises']);
const EXTENSIONS = ['.js', '.mjs', '.cjs', '/index.js', '/index.mjs', '/index.cjs'];

function isFile(url) {
  try {
    return statSync(fileURLToPath(url)).isFile();
  } catch {
    return false;
  }
}

export async function resolve(specifier, context, nextResolve) {
  if (BLOCKED.has(specifier)) {
    throw Object.assign(new Error(`Cannot load "${specifier}": not available inside the grading sandbox`), { code: 'ERR_EVIGRADE_BLOCKED' });
  }
  const fw = FRAMEWORK.get(specifier);
  if (fw) return { url: fw, shortCircuit: true };
  const isRelative = specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/');
  if (Object.hasOwn(cfg.virtual, specifier)) return { url: specifier, shortCircuit: true };
  if (isRelative && context.parentURL) {
    const url = new URL(specifier, context.parentURL).href;
    if (Object.hasOwn(cfg.virtual, url)) return { url, shortCircuit: true };
    if (cfg.mode === 'collect' && url.startsWith(cfg.rootUrl)) return { url: 'evigrade:stub', shortCircuit: true };
    if (!isFile(url)) {
      for (const ext of EXTENSIONS) {
        if (Object.hasOwn(cfg.virtual, url + ext)) return { url: url + ext, shortCircuit: true };
        if (isFile(url + ext)) return nextResolve(specifier + ext, context);
      }
    }
  }
  return nextResolve(specifier, context);
}

const api = (sym, names) =>
  `const g = globalThis[Symbol.for(${JSON.stringify(sym)})];\n` +
  names.map((n) => `export const ${n} = g.${n};`).join('\n');

const JEST_NAMES = ['describe', 'test', 'it', 'expect', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach',
  'xtest', 'xit', 'fit', 'xdescribe', 'fdescribe', 'jest', 'vi'];
const NODE_TEST_NAMES = ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach', 'mock', 'run'];

function stubSource() {
  const valid = cfg.stubNames.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
  return 'const h = { get: (t, k) => (k === "then" ? undefined : s), apply: () => undefined, construct: () => ({}) };\n' +
    'const s = new Proxy(function stub() {}, h);\nexport default s;\n' +
    valid.map((n) => `export const ${n} = s;`).join('\n');
}

// Every file of the submission is evaluated by the harness's student realm (a
// ses Compartment), never by Node's loader: an ESM test gets a shim that asks
// the realm for the module's exports. As with Jest (through Babel), an ESM test
// may import any property of a CommonJS module by name; the shim exports the
// names the tests import.
function studentShim(url) {
  const valid = cfg.stubNames.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
  return `const m = await globalThis[Symbol.for('evigrade.student')](${JSON.stringify(fileURLToPath(url))});\n` +
    `export default (m && m.__esModule && 'default' in m) ? m.default : m;\n` +
    valid.map((n) => `export const ${n} = m == null ? undefined : m[${JSON.stringify(n)}];`).join('\n');
}

export async function load(url, context, nextLoad) {
  if (url === 'evigrade:jest-globals') {
    return { format: 'module', source: api('evigrade.jest', JEST_NAMES), shortCircuit: true };
  }
  if (url === 'evigrade:node-test') {
    return { format: 'module', source: api('evigrade.nodeTest', NODE_TEST_NAMES) + '\nexport default g.test;', shortCircuit: true };
  }
  if (url === 'evigrade:stub') return { format: 'module', source: stubSource(), shortCircuit: true };
  if (Object.hasOwn(cfg.virtual, url)) {
    const v = cfg.virtual[url];
    return { format: v.format, source: v.source, shortCircuit: true };
  }
  if (url.startsWith(cfg.rootUrl)) return { format: 'module', source: studentShim(url), shortCircuit: true };
  return nextLoad(url, context);
}
