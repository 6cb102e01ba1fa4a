'use strict';
// A Docker "cell": one container serving several jobs of a batch, one after another (src/adapters/sandbox/docker-cell.ts,
// docs/sandboxes.md "Docker cells"). This runner is the container's only root process (under docker-init, which reaps
// orphans as pid 1). It holds CAP_SETUID, CAP_SETGID and CAP_KILL, never runs student code, and is unreachable from a
// job: a job runs as uid 65534 without capabilities, so it can neither signal nor trace a root process, and it shares
// no descriptor with this one (Node opens every descriptor close-on-exec; the job gets its three pipes only).
//
// Per job: the harness (`argv`) is started as 65534 ahead of its payload, as a one-job container's is; the grader moves
// it into the job's own memory and pids cgroups and then sends, on stdin, one message: the submission's files (written
// here, as root, into the root-owned /job/sub) and the harness's payload (passed on to its stdin). When the harness
// exits, every other process in the container is killed (kill(-1)), until /proc lists only docker-init and this
// runner; the job's output pipes are drained; /tmp is emptied as 65534 (its only writer) and /job/sub as root; and both
// file systems must be back to what they held before the first job (statfs: blocks and inodes in use). Only then does
// the runner report the job done, clean, and start the next harness. Anything it cannot prove clean is reported
// unclean, and the grader removes the container.
//
// Wire (container stdout, read by the grader): records of [1-byte type][4-byte big-endian length][bytes]:
//   'r' a harness is started and waits for its payload;  'o' / 'e' the job's stdout / stderr bytes;
//   'x' the job ended, every process of it gone and its output drained: JSON {code, signal, why};
//   'd' the cell is clean again (or not, and the runner exits): JSON {clean, why}.
// The job never writes to the container's stdout: its bytes reach it only inside records, so it cannot forge one.
// Grader to runner (container stdin): [4-byte big-endian length][JSON {files:[{path, base64}], payload, next}].
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const NOBODY = 65534;
const ROOT = '/job/sub';
const TMP = '/tmp';
const program = process.argv.slice(2);

function record(type, bytes) {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(bytes.length, 1);
  // Written synchronously on the blocking pipe Docker gave (process.stdout is never touched, so never made
  // non-blocking): a record is whole before the runner exits, and nothing interleaves with it.
  const all = Buffer.concat([head, bytes]);
  for (let off = 0; off < all.length; ) off += fs.writeSync(1, all, off);
}

/** Blocks and inodes in use on a file system: what a job may have left there. */
function inUse(dir) {
  const s = fs.statfsSync(dir);
  return { blocks: s.blocks - s.bfree, inodes: s.files - s.ffree };
}
const BASELINE = { [TMP]: inUse(TMP), [ROOT]: inUse(ROOT) };

function safeRelative(p) {
  if (typeof p !== 'string' || p === '' || p.includes('\0') || path.isAbsolute(p)) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function writeFiles(files) {
  if (!Array.isArray(files)) throw new Error('payload files must be a list');
  for (const f of files) {
    if (!f || !safeRelative(f.path) || typeof f.base64 !== 'string') throw new Error('bad file in payload: ' + JSON.stringify(f && f.path));
    const dest = path.join(ROOT, f.path);
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o755 });
    fs.writeFileSync(dest, Buffer.from(f.base64, 'base64'), { flag: 'wx', mode: 0o644 });
  }
}

/** Every process but docker-init (1) and this runner, as /proc lists them (zombies too, until init reaps them). */
const others = () => fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && p !== '1' && p !== String(process.pid));
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function killAll() {
  for (let i = 0; i < 400; i++) {
    if (others().length === 0) return true;
    try {
      process.kill(-1, 'SIGKILL'); // every process but init and the caller, whatever its uid
    } catch {
      // none left to signal: zombies waiting for init
    }
    await pause(5);
  }
  return false;
}

/** Removes everything under `dir` (never following a link: rmSync does not). */
function empty(dir) {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    // The job may have taken every permission off its own directories: as their owner it may give them back.
    const open = (q) => {
      const st = fs.lstatSync(q);
      if (!st.isDirectory()) return;
      fs.chmodSync(q, 0o700);
      for (const n of fs.readdirSync(q)) open(path.join(q, n));
    };
    open(p);
    fs.rmSync(p, { recursive: true, force: true });
  }
}

/** /tmp as 65534 (the only uid that wrote there; root here has no CAP_DAC_OVERRIDE), /job/sub as root. */
function wipe() {
  process.setegid(NOBODY);
  process.seteuid(NOBODY);
  try {
    empty(TMP);
  } finally {
    process.seteuid(0);
    process.setegid(0);
  }
  empty(ROOT);
  for (const dir of [TMP, ROOT]) {
    const now = inUse(dir);
    if (now.blocks !== BASELINE[dir].blocks || now.inodes !== BASELINE[dir].inodes) return `${dir} still holds ${now.blocks} blocks and ${now.inodes} inodes`;
  }
  return null;
}

let current = null;

function startHarness() {
  const child = spawn(program[0], program.slice(1), { uid: NOBODY, gid: NOBODY, cwd: ROOT, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const closed = Promise.all([child.stdout, child.stderr].map((s) => new Promise((r) => s.once('close', r))));
  child.stdout.on('data', (b) => record('o', b));
  child.stderr.on('data', (b) => record('e', b));
  child.stdin.on('error', () => undefined); // a harness that died before reading its payload
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  current = { child, closed, exited };
  record('r', Buffer.alloc(0));
}

async function serve(message) {
  const job = current;
  let why = null;
  try {
    writeFiles(message.files);
  } catch (e) {
    why = 'file delivery: ' + e.message;
  }
  if (why) job.child.kill('SIGKILL');
  else job.child.stdin.end(message.payload);
  const { code, signal } = await job.exited;
  const killed = await killAll();
  // Every writer of the job's pipes is dead: they end, so the job's last bytes are recorded before 'x'.
  await job.closed;
  record('x', Buffer.from(JSON.stringify({ code, signal, why })));
  let dirty = killed ? why : 'processes of the job outlived it';
  try {
    dirty = dirty ?? wipe();
  } catch (e) {
    dirty = 'wipe: ' + e.message;
  }
  record('d', Buffer.from(JSON.stringify({ clean: dirty === null, why: dirty })));
  if (dirty !== null || !message.next) process.exit(dirty === null ? 0 : 3);
  startHarness();
}

// Messages on stdin, one at a time (the grader sends the next only after this one's 'd').
let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
    const len = pending.readUInt32BE(0);
    const message = JSON.parse(pending.subarray(4, 4 + len).toString('utf8'));
    pending = pending.subarray(4 + len);
    void serve(message).catch((e) => {
      process.stderr.write('cell runner: ' + (e && e.stack) + '\n');
      process.exit(4);
    });
  }
});
process.stdin.on('end', () => process.exit(0));
startHarness();
