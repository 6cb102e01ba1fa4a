// Issue 32's speed target: a reference of about 50 lines with up to 200 mutants audited in under a minute on this
// 2-core machine. The exercise is two of the agreement corpus's JavaScript references side by side (say: 25 lines,
// roman-numerals: 38 lines; 155 StrykerJS mutants together) with both hidden test files, as one rubric. Prints the
// wall time of the whole command (start-up, 10 reference runs, the coverage run, every mutant, one probe job per
// survivor), its phases, and the time a mutant job costs at this machine's load. StrykerJS beside it: bench/audit.bench.mjs
// (on say alone; not re-run here).
// usage: node bench/audit-target.mjs
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'evigrade-audit-target-'));
try {
  mkdirSync(join(dir, 'reference'));
  for (const slug of ['say', 'roman-numerals']) {
    const src = join(ROOT, 'tests/agreement', slug);
    copyFileSync(join(src, `${slug}.spec.js`), join(dir, `${slug}.spec.js`));
    copyFileSync(join(src, 'solutions/reference.js'), join(dir, 'reference', `${slug}.js`));
  }
  const lines = ['say', 'roman-numerals']
    .map(
      (s) =>
        readFileSync(join(dir, 'reference', `${s}.js`), 'utf8')
          .trimEnd()
          .split('\n').length,
    )
    .reduce((a, b) => a + b, 0);
  writeFileSync(
    join(dir, 'rubric.yaml'),
    'id: say-roman\ntitle: say and roman numerals\nlanguage: javascript\nstatement: bench target\nentry: ./say\n' +
      'tests:\n  - say.spec.js\n  - roman-numerals.spec.js\nreference: reference\n',
  );
  const load = loadavg()[0].toFixed(1);
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [join(ROOT, 'bin/evigrade.js'), 'audit', join(dir, 'rubric.yaml'), '--out', join(dir, 'out')],
    {
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  const wall = (performance.now() - t0) / 1000;
  const a = JSON.parse(readFileSync(join(dir, 'out', 'audit.json'), 'utf8'));
  const jobs = a.counts.total + a.counts.survived; // every mutant, and one probe per survivor
  const perJob = a.timings.mutantsMs / 1000 / jobs;
  const at200 =
    a.timings.referenceMs / 1000 + perJob * 200 * (jobs / a.counts.total) + (wall - a.timings.totalMs / 1000);
  console.log(
    `load average at start ${load}; reference ${lines} lines; ${a.counts.total} mutants (${a.counts.survived} survivors probed)`,
  );
  console.log(
    `evigrade audit: wall ${wall.toFixed(1)} s (reference phase ${(a.timings.referenceMs / 1000).toFixed(1)} s, mutants and probes ${(a.timings.mutantsMs / 1000).toFixed(1)} s, ${perJob.toFixed(2)} s a job at concurrency 2)`,
  );
  console.log(
    `at this rate 200 mutants (with as many survivors in proportion): ≈ ${at200.toFixed(0)} s against the 60 s target`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
