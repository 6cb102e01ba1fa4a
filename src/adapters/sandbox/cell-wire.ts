// What a Docker cell's runner (sandbox/cell/runner.cjs) says on the container's stdout: records of
// [1-byte type][4-byte big-endian length][bytes]. The job's own bytes reach the grader only inside 'o' and 'e' records,
// so nothing a job writes can end its run, or the next one's, early or late. Per job, its stdout and stderr are kept
// as a one-job container's are: frames (HMAC-authenticated with the job's own key) on stderr lines, the rest capped.
import { StringDecoder } from 'node:string_decoder';
import { createFrameParser, type FrameParser } from './frames.js';
import type { Frame } from '../../domain/sandbox.js';

/** How the job's harness ended, every process of it gone and its output drained. */
export interface CellExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The runner refused the job (a file it could not deliver). */
  readonly why: string | null;
}

/** Whether the cell is back to its state before the first job. */
export interface CellClean {
  readonly clean: boolean;
  readonly why: string | null;
}

export interface CellEvents {
  /** 'r': a harness is started and waits for its payload. */
  onReady(): void;
  onExit(e: CellExit): void;
  onClean(c: CellClean): void;
  /** The job's output ('o' / 'e'). */
  onOutput(which: 'stdout' | 'stderr', bytes: Buffer): void;
}

/** Feeds the demultiplexed container stdout; returns false once a record cannot be read (a broken runner). */
export function createRecordReader(events: CellEvents): (chunk: Buffer) => boolean {
  let pending: Buffer = Buffer.alloc(0);
  let broken = false;
  return (chunk) => {
    if (broken) return false;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const len = pending.readUInt32BE(1);
      if (pending.length < 5 + len) break;
      const type = String.fromCharCode(pending[0] as number);
      const body = pending.subarray(5, 5 + len);
      pending = pending.subarray(5 + len);
      if (type === 'o' || type === 'e') events.onOutput(type === 'o' ? 'stdout' : 'stderr', body);
      else if (type === 'r') events.onReady();
      else if (type === 'x') events.onExit(JSON.parse(body.toString('utf8')) as CellExit);
      else if (type === 'd') events.onClean(JSON.parse(body.toString('utf8')) as CellClean);
      else return !(broken = true);
    }
    return true;
  };
}

/** One job's output, as docker-pool.ts keeps a one-job container's. */
export interface JobOutput {
  readonly parser: FrameParser;
  readonly stdout: Buffer[];
  readonly stderr: Buffer[];
  bytes: number;
  limit: boolean;
  push(which: 'stdout' | 'stderr', bytes: Buffer): void;
}

export function createJobOutput(key: string, capBytes: number, onFrame: (f: Frame) => void, onFlood: () => void): JobOutput {
  let line = '';
  // A record ends wherever the runner's read of the pipe did, inside a UTF-8 sequence too: decoded per record, a frame
  // with a multi-byte character split there would fail its HMAC and count as forged.
  const utf8 = new StringDecoder('utf8');
  const out: JobOutput = {
    parser: createFrameParser(key, onFrame),
    stdout: [],
    stderr: [],
    bytes: 0,
    limit: false,
    push(which, bytes) {
      if (which === 'stdout') return keep('stdout', bytes);
      if (out.limit) return;
      // Frames travel on stderr, each on a line of its own.
      line += utf8.write(bytes);
      let nl: number;
      while ((nl = line.indexOf('\n')) >= 0) {
        const text = line.slice(0, nl);
        line = line.slice(nl + 1);
        if (text.startsWith('{"seq":')) out.parser.push(text);
        else if (text) keep('stderr', Buffer.from(`${text}\n`));
      }
    },
  };
  function keep(which: 'stdout' | 'stderr', chunk: Buffer): void {
    if (out.bytes < capBytes) out[which].push(chunk.subarray(0, capBytes - out.bytes));
    out.bytes += chunk.length;
    if (out.bytes > 2 * capBytes + 64 * 1024 && !out.limit) {
      out.limit = true;
      onFlood();
    }
  }
  return out;
}
