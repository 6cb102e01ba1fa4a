// What a user pays before and around grading: CPU of whole `evigrade` commands, start-up included,
// every descendant counted (cpuacct cgroup, bench/cpu.mjs). Median of BENCH_RUNS (5) runs each.
//   node -e 0                          — the floor: a bare Node start;
//   --help, grade --help               — a command that needs nothing;
//   grade of an empty folder           — refused before any sandbox (exit 2);
//   check-rubric                       — rubric, sandbox, test collection, the reference graded (lint included);
//   grade of one submission (--no-llm) — the whole path for one student.
// BENCH_SANDBOX (bwrap) picks the backend; Docker containers run outside our cgroup, so use bwrap or unshare.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpu, summary } from './cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_BIN: another build's bin/evigrade.js, for a baseline measured the same way (an older checkout).
const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SANDBOX = process.env.BENCH_SANDBOX ?? 'bwrap';
const work = mkdtempSync(join(tmpdir(), 'evigrade-startup-'));
const cpu = childCpu();

const empty = join(work, 'empty');
const one = join(work, 'one');
mkdirSync(empty);
mkdirSync(one);
writeFileSync(join(one, 'ada.js'), 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n');

function cpuOf(args, expectCodes) {
  const c0 = cpu.childMs();
  const r = spawnSync(process.execPath, args, {
    stdio: 'ignore',
    env: { ...process.env, CI: 'true', HF_TOKEN: '' },
    timeout: 120_000,
  });
  if (!expectCodes.includes(r.status))
    throw new Error(`${args.slice(1).join(' ')} exited ${r.status ?? r.signal}, expected ${expectCodes.join(' or ')}`);
  return cpu.childMs() - c0;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const measure = (args, codes = [0]) => median(Array.from({ length: RUNS }, () => cpuOf(args, codes)));

try {
  const rows = [
    ['node -e 0 (floor)', measure(['-e', '0']), null],
    ['evigrade --help', measure([BIN, '--help']), 150],
    ['evigrade grade --help', measure([BIN, 'grade', '--help'], [0, 2]), 150], // exit 2 in builds before per-command help
    // Builds before the early refusal grade an empty folder to an empty gradebook (exit 0).
    [
      'evigrade grade <empty folder> (exit 2)',
      measure([BIN, 'grade', empty, '--rubric', LEAP, '--out', join(work, 'o0')], [2, 0]),
      600,
    ],
    [`evigrade check-rubric (${SANDBOX})`, measure([BIN, 'check-rubric', LEAP, '--sandbox', SANDBOX]), null],
    [
      `evigrade grade, one submission, --no-llm (${SANDBOX})`,
      measure([
        BIN,
        'grade',
        one,
        '--rubric',
        LEAP,
        '--out',
        join(work, 'o1'),
        '--no-llm',
        '--force',
        '--sandbox',
        SANDBOX,
      ]),
      null,
    ],
  ];
  console.log(`CPU per command (${BIN}), median of ${RUNS}, ${cpu.source}; node ${process.version}`);
  for (const [what, ms, target] of rows)
    console.log(`  ${what.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms${target ? `   target <= ${target} ms` : ''}`);
  for (const [what, ms, target] of rows.slice(1))
    summary(
      `\`${what}\` CPU`,
      `${ms.toFixed(0)} ms`,
      `${target ? `target ≤ ${target} ms; ` : ''}node -e 0 ${rows[0][1].toFixed(0)} ms`,
    );
} finally {
  rmSync(work, { recursive: true, force: true });
  cpu.close();
}
