// Reading a class's LMS download: CPU of `readDownload` (yauzl inflate, the archive budget, the Canvas
// naming, grouping and UTF-8 decoding) on a 2,000-student Canvas zip, beside its floor (Info-ZIP `unzip -p`
// inflating the same entries to /dev/null) and the usual peer (`unzip -d`, what instructors run before
// writing their own glue). Node's own start is not counted: `readDownload` runs in this process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { readDownload } from '../dist/adapters/archive/download.js';
import { childCpu } from './cpu.mjs';

const STUDENTS = 2000;
const RUNS = 5;
const dir = mkdtempSync(join(tmpdir(), 'evigrade-bench-lms-'));
const zipPath = join(dir, 'submissions.zip');
const z = new yazl.ZipFile();
for (let i = 0; i < STUDENTS; i++) {
  const body = `// student ${i}\nexport const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n${'// padding\n'.repeat(60)}`;
  z.addBuffer(Buffer.from(body), `student${i}name_${100000 + i}_${900000 + i}_leap.js`);
  z.addBuffer(Buffer.from(`export const helper${i} = 1;\n`), `student${i}name_${100000 + i}_${900000 + i}_util.js`);
}
z.end();
const chunks = [];
for await (const c of z.outputStream) chunks.push(c);
writeFileSync(zipPath, Buffer.concat(chunks));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function ownCpu(fn) {
  return async () => {
    const t = process.cpuUsage();
    await fn();
    const d = process.cpuUsage(t);
    return (d.user + d.system) / 1000;
  };
}
const cpu = childCpu();
function childRun(args) {
  return async () => {
    const before = cpu.childMs();
    const r = spawnSync(args[0], args.slice(1), { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    return cpu.childMs() - before;
  };
}
async function measure(fn) {
  const xs = [];
  for (let i = 0; i < RUNS; i++) xs.push(await fn());
  return median(xs);
}

await readDownload(zipPath, 'canvas', 'latest', 'leap.js'); // warm the module and the JIT once
const ours = await measure(
  ownCpu(async () => {
    const d = await readDownload(zipPath, 'canvas', 'latest', 'leap.js');
    if (d.submissions.length !== STUDENTS) throw new Error('wrong count');
  }),
);
const floor = await measure(childRun(['unzip', '-p', zipPath]));
const peer = await measure(async () => {
  const out = mkdtempSync(join(dir, 'x-'));
  const ms = await childRun(['unzip', '-q', '-o', zipPath, '-d', out])();
  rmSync(out, { recursive: true, force: true });
  return ms;
});
cpu.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `LMS download, ${STUDENTS} students (${STUDENTS * 2} entries, ${(chunks.reduce((n, c) => n + c.length, 0) / 1024).toFixed(0)} KiB zip), CPU median of ${RUNS} (${cpu.source}):`,
);
console.log(`  evigrade readDownload (inflate + naming + grouping + UTF-8)  ${ours.toFixed(0)} ms`);
console.log(`  floor: unzip -p to /dev/null (inflate only)                 ${floor.toFixed(0)} ms`);
console.log(`  peer:  unzip -d (extract to disk, no grouping)              ${peer.toFixed(0)} ms`);
