// `evigrade audit` over real exercises of the agreement corpora (tests/agreement: Jest-style JavaScript;
// tests/python-agreement: pytest/unittest Python): each exercise's hidden tests with its `reference` solution as the
// rubric's reference. Prints a table of scores and the survivors; writes each audit under the given folder.
// usage: node bench/audit-corpus.mjs <out-dir> [js|py|all]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const JS = ['leap', 'say', 'roman-numerals', 'list-ops', 'word-search', 'gigasecond'];
const PY = ['leap', 'grains', 'word_count', 'series', 'stats', 'rotational_cipher'];

function jsExercise(slug, dir) {
  const src = join(ROOT, 'tests/agreement', slug);
  const spec = readdirSync(src).find((f) => f.endsWith('.spec.js'));
  const module = /from ['"]\.\/([\w-]+)['"]|require\(['"]\.\/([\w-]+)['"]\)/.exec(
    readFileSync(join(src, spec), 'utf8'),
  );
  const entry = module[1] ?? module[2];
  mkdirSync(join(dir, 'tests'), { recursive: true });
  mkdirSync(join(dir, 'reference'), { recursive: true });
  cpSync(join(src, spec), join(dir, 'tests', spec));
  cpSync(join(src, 'solutions/reference.js'), join(dir, 'reference', `${entry}.js`));
  return { language: 'javascript', entry: `./${entry}`, tests: [`tests/${spec}`] };
}

function pyExercise(slug, dir) {
  const src = join(ROOT, 'tests/python-agreement', slug);
  const tests = readdirSync(src).filter((f) => f.endsWith('.py'));
  mkdirSync(join(dir, 'tests'), { recursive: true });
  for (const t of tests) cpSync(join(src, t), join(dir, 'tests', t));
  cpSync(join(src, 'solutions/reference'), join(dir, 'reference'), { recursive: true });
  return { language: 'python', entry: `./${slug}`, tests: tests.map((t) => `tests/${t}`) };
}

function audit(kind, slug, out) {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-audit-corpus-'));
  try {
    const r = kind === 'js' ? jsExercise(slug, dir) : pyExercise(slug, dir);
    const yaml = [
      `id: ${slug.replace(/_/g, '-')}`,
      `title: ${slug}`,
      `language: ${r.language}`,
      'statement: corpus exercise',
      `entry: ${r.entry}`,
      'tests:',
      ...r.tests.map((t) => `  - ${t}`),
      'reference: reference',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'rubric.yaml'), yaml);
    const t0 = performance.now();
    const text = execFileSync(
      process.execPath,
      [join(ROOT, 'bin/evigrade.js'), 'audit', join(dir, 'rubric.yaml'), '--out', join(out, `${kind}-${slug}`)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const a = JSON.parse(readFileSync(join(out, `${kind}-${slug}`, 'audit.json'), 'utf8'));
    return { kind, slug, wallS: ((performance.now() - t0) / 1000).toFixed(1), a, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const out = process.argv[2] ?? join(tmpdir(), 'evigrade-audit-corpus');
const which = process.argv[3] ?? 'all';
const jobs = [...(which !== 'py' ? JS.map((s) => ['js', s]) : []), ...(which !== 'js' ? PY.map((s) => ['py', s]) : [])];
console.log(
  '| exercise | mutants | killed | survived | timeout | error | score | flaky | wall (s) | mutant phase (s) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
const texts = [];
for (const [kind, slug] of jobs) {
  const { a, wallS, text } = audit(kind, slug, out);
  const c = a.counts;
  console.log(
    `| ${kind} ${slug} | ${c.total} | ${c.killed} | ${c.survived} | ${c.timeout} | ${c.error} | ${a.score === null ? 'n/a' : (a.score * 100).toFixed(1) + '%'} | ${a.flaky.length} | ${wallS} | ${(a.timings.mutantsMs / 1000).toFixed(1)} |`,
  );
  texts.push(`### ${kind} ${slug}\n${text}`);
}
console.log(`\n${texts.join('\n')}`);
