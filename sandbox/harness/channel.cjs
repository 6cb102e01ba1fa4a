'use strict';
// The results channel: one frame per line on fd 3, each authenticated with an
// HMAC whose key arrived on stdin and is never visible to student code. A
// student can write to fd 3 or even read it back through /proc, but without the
// key cannot produce a frame the grader accepts, and sequence numbers stop replay.
const P = require('./primordials.cjs');
const { createHmacSha256, utf8 } = require('./hmac.cjs');

// fd 3 for process backends; Docker cannot pass extra fds, so there frames go to
// stderr, each on a fresh line (a student's half-written line cannot swallow one).
// Read at the first frame (hello), not at load: a start-up snapshot loads this module long before any job.
let RESULT_FD = 0;
let LEAD = '';
function pickFd() {
  RESULT_FD = process.env.EVIGRADE_FRAMES_FD === '2' ? 2 : 3;
  LEAD = RESULT_FD === 2 ? '\n' : '';
  delete process.env.EVIGRADE_FRAMES_FD;
}

/** Serialises plain data without consulting any (possibly polluted) toJSON. */
function ser(v) {
  if (v === null || v === undefined) return 'null';
  const t = typeof v;
  if (t === 'string') return P.JSONStringify(v);
  if (t === 'number') return P.ObjectIs(v, v) && v !== Infinity && v !== -Infinity ? P.String(v) : 'null';
  if (t === 'boolean') return v ? 'true' : 'false';
  if (P.ArrayIsArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + ser(v[i]);
    return out + ']';
  }
  const keys = P.ObjectKeys(v);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    out += (i ? ',' : '') + P.JSONStringify(keys[i]) + ':' + ser(v[keys[i]]);
  }
  return out + '}';
}

function createChannel(key) {
  let seq = 0;
  // The key's pads live only in this closure; signing consults no host object.
  const hmac = createHmacSha256(key);
  return function send(type, data) {
    seq += 1;
    const body = ser(data);
    const mac = hmac(seq + '|' + type + '|' + body);
    const line = LEAD + '{"seq":' + seq + ',"type":' + P.JSONStringify(type) + ',"data":' + body + ',"mac":"' + mac + '"}\n';
    writeAll(line);
  };
}

function writeAll(text) {
  const buf = utf8(text);
  let off = 0;
  while (off < buf.length) {
    try {
      off += P.writeSync(RESULT_FD, buf, off, buf.length - off);
    } catch (e) {
      if (e && e.code === 'EAGAIN') continue;
      throw e;
    }
  }
}

/** The one unauthenticated frame: tells the grader the process is up so it can
 * place the process tree in its cgroups before any student code exists. */
function hello() {
  pickFd();
  writeAll(LEAD + '{"seq":0,"type":"hello","data":null,"mac":""}\n');
}

module.exports = { createChannel, hello, ser };
