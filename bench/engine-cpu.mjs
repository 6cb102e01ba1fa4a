// What the Docker engine spends while a command runs, outside the command's own cgroup: dockerd and containerd, the
// per-container shims and the runc they start, and the containers' own processes. The daemons are moved, for the
// measurement, into a cpuacct cgroup of the bench's own, and every process they start from then on (the shims, runc)
// is born in it; runc moves each container's first process into the container's own group, so nothing is counted
// twice. The cpuacct hierarchy is mounted apart from `cpu` here (cgroup v1), so the move changes no scheduling: it
// only counts. A container's group (`/<id>` at the root, or under /docker) is removed as it stops, so
// a poller process reads each one every 10 ms while it exists (the command runs through spawnSync, which blocks this
// process) and keeps the last value: what a container spends after its last read (≤ 10 ms, and its processes have
// usually exited by then) is missed. Polling the shims instead (sandbox.bench.mjs) misses each one's last moments and,
// through the children a shim reaps, counts the container's processes a second time. Another user of the same engine
// at the same time is counted in the daemons' figure too (containers are counted only when the bench's own command
// started them: their `evigrade.owner` label names a child of the bench).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CPUACCT = '/sys/fs/cgroup/cpuacct';
const usage = (group) => Number(readFileSync(join(CPUACCT, group, 'cpuacct.usage'), 'utf8')) / 1e6;
const commOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};
/** The process's cpuacct cgroup, relative to the hierarchy's root. */
const groupOf = (pid) =>
  (readFileSync(`/proc/${pid}/cgroup`, 'utf8').match(/^\d+:(?:[^:]*,)?cpuacct(?:,[^:]*)?:(.*)$/m)?.[1] ?? '/').slice(1);
const procsOf = (group) =>
  readFileSync(join(CPUACCT, group, 'cgroup.procs'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(Number);
const move = (pid, group) => {
  try {
    writeFileSync(join(CPUACCT, group, 'cgroup.procs'), String(pid));
  } catch {
    // gone
  }
};

const CONTAINER = /^[0-9a-f]{64}$/;
const ppidOf = (pid) => {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
};
/** Whether a container is the bench's own or a grader's it started (its `evigrade.owner` label names it or a child). */
const oursFrom = (bench) => {
  const known = new Map();
  return (id) => {
    if (!known.has(id)) {
      let owner = 0;
      try {
        const config = JSON.parse(readFileSync(`/var/lib/docker/containers/${id}/config.v2.json`, 'utf8'));
        owner = Number(config.Config?.Labels?.['evigrade.owner'] ?? 0);
      } catch {
        // not readable yet: asked again at the next read
        return false;
      }
      known.set(id, owner > 0 && (owner === bench || ppidOf(owner) === bench));
    }
    return known.get(id);
  };
};

/** The poller: the last cpuacct.usage (ms) of every container the bench's commands start, printed when stdin ends. */
function pollContainers(bench) {
  const seen = new Map();
  const ours = oursFrom(bench);
  const tick = () => {
    for (const parent of ['', 'docker'])
      for (const id of readdirSync(join(CPUACCT, parent)).filter((d) => CONTAINER.test(d) && ours(d)))
        try {
          seen.set(id, usage(join(parent, id)));
        } catch {
          // removed between the listing and the read
        }
  };
  const timer = setInterval(tick, 10);
  tick();
  process.stdout.write('ready\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    clearInterval(timer);
    tick();
    process.stdout.write(String([...seen.values()].reduce((a, ms) => a + ms, 0)));
  });
}

async function containerPoller() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--poll', String(process.pid)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return () =>
    new Promise((resolve) => {
      child.once('close', () => resolve(Number(out.slice(out.indexOf('\n') + 1))));
      child.stdin.end();
    });
}

/**
 * Starts counting the engine's CPU; `await stop()` returns { daemons, containers, total } in ms (daemons: dockerd,
 * containerd, shims, runc). Throws, saying why, where it cannot count (no engine, not root, no cgroup v1 cpuacct).
 */
export async function engineCpu() {
  const daemons = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && /^(dockerd|containerd)$/.test(commOf(p)));
  if (daemons.length === 0) throw new Error('no dockerd or containerd process');
  const group = `evigrade-bench-engine-${process.pid}`;
  mkdirSync(join(CPUACCT, group));
  const home = new Map(daemons.map((p) => [p, groupOf(p)]));
  for (const p of daemons) writeFileSync(join(CPUACCT, group, 'cgroup.procs'), p);
  const containers = await containerPoller();
  const before = usage(group);
  return {
    async stop() {
      const r = { containers: await containers(), daemons: usage(group) - before };
      // Back where they were; a shim still alive (another user's container) goes where its containerd lives.
      for (const p of procsOf(group)) move(p, home.get(String(p)) ?? home.values().next().value);
      for (let i = 0; i < 50; i++) {
        try {
          rmdirSync(join(CPUACCT, group));
          break;
        } catch {
          for (const p of procsOf(group)) move(p, '');
        }
      }
      return { ...r, total: r.containers + r.daemons };
    },
  };
}

if (process.argv[2] === '--poll') pollContainers(Number(process.argv[3]));

/** The columns of a "Docker beside bwrap" table (batch.bench.mjs, docker-cell.bench.mjs). */
export const DOCKER_HEADS = [
  'per job',
  'CPU, all of it',
  "command's cgroup",
  'containers + engine',
  'wall',
  'wall over bwrap',
  'CPU over bwrap',
];

/** `v` ms with its sign: a figure under bwrap's prints as −N ms. */
export const signedMs = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(Math.round(v))} ms`;

/** One row of that table: run `d` of a class of `n` (its `own` and `engine` CPU when Docker's), read against `bwrap`. */
export function dockerRow(label, d, bwrap, n) {
  const ms = (x) => `${Math.round(x)} ms`;
  return [
    label,
    ms(d.cpu / n),
    d.engine === undefined ? '—' : ms(d.own / n),
    d.engine === undefined ? '—' : ms(d.engine / n),
    ms(d.wall / n),
    d === bwrap ? '—' : signedMs((d.wall - bwrap.wall) / n),
    d === bwrap ? '—' : signedMs((d.cpu - bwrap.cpu) / n),
  ];
}
