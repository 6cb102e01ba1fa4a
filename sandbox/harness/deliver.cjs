'use strict';
// Docker's pre-started containers: the container is up (node loaded, harness compiled) before anyone knows
// which submission it will grade, so the submission's files come inside the payload, not through the
// engine. The harness starts as root with only CAP_SETUID/CAP_SETGID, writes the files into the
// root-owned /job/sub tmpfs (so the job cannot change them, as with the other backends' read-only
// mount), then drops to uid/gid 65534 for good — all before any student code exists. The drop clears
// every capability and makes the process non-dumpable (its /proc files become root's).
const fs = require('node:fs');
const path = require('node:path');

const NOBODY = 65534;

function safeRelative(p) {
  if (typeof p !== 'string' || p === '' || p.includes('\0') || path.isAbsolute(p)) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** Writes `payload.files` under `payload.root` and drops root; a payload without files changes nothing. */
function deliver(payload) {
  const files = payload.files;
  if (files === undefined) return;
  delete payload.files;
  if (process.getuid() !== 0) throw new Error('files in the payload but the harness is not root: refusing to write them');
  if (!Array.isArray(files)) throw new Error('payload files must be a list');
  for (const f of files) {
    if (!f || !safeRelative(f.path) || typeof f.base64 !== 'string') throw new Error('bad file in payload: ' + JSON.stringify(f && f.path));
    const dest = path.join(payload.root, f.path);
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o755 });
    fs.writeFileSync(dest, Buffer.from(f.base64, 'base64'), { flag: 'wx', mode: 0o644 });
  }
  process.setgroups([]);
  process.setgid(NOBODY);
  process.setuid(NOBODY);
  if (process.getuid() !== NOBODY || process.geteuid() !== NOBODY || process.getgid() !== NOBODY || process.getegid() !== NOBODY) {
    throw new Error('could not drop root');
  }
}

module.exports = { deliver };
