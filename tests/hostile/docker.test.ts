// Docker-specific lifecycle: leftovers of a crashed grader are removed at start; nothing outlives a run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { dockerAvailable, engine as dockerEngine } from '../../src/adapters/sandbox/docker.js';
import { openSandbox } from '../../src/adapters/sandbox/registry.js';
import { HARNESS_DIR, inlineRubric, inlineSubmission } from '../helpers.js';
import { collectExpected, gradeDeterministic } from '../../src/engine.js';
import { analysisPool } from '../helpers.js';

const engine = await dockerAvailable();
if (!engine.ok && process.env.EVIGRADE_REQUIRE_DOCKER === '1')
  throw new Error(`Docker is required here: ${engine.reason}`);
// Other test files may run Docker jobs at the same time (other processes): look at labels, not at everything.
const withLabel = async (label: string): Promise<string[]> =>
  (await (await dockerEngine()).listContainers({ all: true, filters: { label: [label] } })).map((c) => c.Id);
const ours = (): Promise<string[]> => withLabel(`evigrade.owner=${process.pid}`);

describe.skipIf(!engine.ok)(`docker backend lifecycle${engine.ok ? '' : ` (skipped: ${engine.reason})`}`, () => {
  it('removes containers a dead grader left behind when a sandbox opens, and its own when it closes', async () => {
    (await openSandbox('docker', HARNESS_DIR, { dockerCell: 1 })).close(); // builds the image if needed
    const images = await (await dockerEngine()).listImages({ filters: { reference: ['evigrade-sandbox'] } });
    const tag = images[0]?.RepoTags?.[0] as string;
    const orphan = await (
      await dockerEngine()
    ).createContainer({
      Image: tag,
      Cmd: ['/usr/bin/node', '-e', '0'],
      Labels: { 'evigrade.sandbox': '1', 'evigrade.owner': '2147483000' },
      HostConfig: { NetworkMode: 'none' },
    });
    expect(await withLabel('evigrade.sandbox')).toContain(orphan.id);
    const sb = await openSandbox('docker', HARNESS_DIR, { dockerCell: 1 });
    expect(await withLabel('evigrade.sandbox')).not.toContain(orphan.id);
    const rubric = inlineRubric({
      'x.test.js': "const { f } = require('./solution'); test('f', () => expect(f()).toBe(1));",
    });
    const report = await gradeDeterministic(
      inlineSubmission({ 'solution.js': 'module.exports = { f: () => 1 };' }),
      rubric,
      await collectExpected(rubric, sb),
      {
        sandbox: sb,
        analysis: analysisPool(),
        now: () => new Date(),
        tools: {},
        maxResumes: 0,
      },
    );
    expect([report.sandbox.backend, report.tests.map((t) => t.status)]).toEqual(['docker', ['passed']]);
    // The pids cgroup that keeps a container's record of refused forks is gone once the run is read: what is left
    // belongs to the containers started ahead for the next jobs, each still running and never used.
    const pidsGroups = '/sys/fs/cgroup/pids/evigrade';
    const groups = (): string[] =>
      existsSync(pidsGroups)
        ? readdirSync(pidsGroups)
            .filter((n) => n.startsWith(`${process.pid}-docker-`))
            .sort()
        : [];
    const running = (
      await (
        await dockerEngine()
      ).listContainers({ filters: { label: [`evigrade.owner=${process.pid}`], status: ['running'] } })
    )
      .map((c) => `${process.pid}-docker-${c.Id.slice(0, 16)}`)
      .sort();
    const left = groups();
    expect(left.filter((g) => !running.includes(g))).toEqual([]);
    expect(left.length).toBeLessThanOrEqual(2);
    sb.close();
    for (let i = 0; i < 50 && ((await ours()).length > 0 || groups().length > 0); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect([await ours(), groups()]).toEqual([[], []]);
  });
});

/**
 * A JavaScript job's container starts from the harness's start-up snapshot, bound read-only (a container started from
 * boot.cjs compiled the whole bundle: ≈ 0.15 s more CPU each), and its cgroups sit at the root of each hierarchy, so its CPU
 * competes as a bwrap job's process does, not inside Docker's one shared `/docker` group (cgroupfs driver, cgroup v1).
 */
async function expectStartedLikeBwrap(info: Docker.ContainerInspectInfo): Promise<void> {
  const blob = info.Config.Cmd[info.Config.Cmd.indexOf('--snapshot-blob') + 1] ?? '';
  expect(blob).toMatch(/^\/evigrade\/snapshot-[0-9a-f]{16}\.blob$/);
  const mounts = (info.HostConfig.Mounts ?? []).map((m) => [m.Type, m.Target, m.ReadOnly]);
  expect(mounts).toEqual([['bind', blob, true]]);
  const { CgroupDriver, CgroupVersion } = (await (await dockerEngine()).info()) as Record<string, string>;
  if (CgroupDriver !== 'cgroupfs' || CgroupVersion !== '1') return;
  const cpuOf = (text: string): string => /^\d+:(?:[^:]*,)?cpu(?:,[^:]*)?:(.*)$/m.exec(text)?.[1] ?? '';
  expect(cpuOf(readFileSync(`/proc/${info.State.Pid}/cgroup`, 'utf8'))).toBe(`/${info.Id}`);
}

describe.skipIf(!engine.ok)(`docker containers started ahead${engine.ok ? '' : ` (skipped: ${engine.reason})`}`, () => {
  it('know nothing of a submission before its payload, have no network, serve one job each and are then removed', async () => {
    const { LimitsSchema } = await import('../../src/domain/rubric.js');
    const marker = `marker-${Date.now()}`;
    const job = (n: number) => ({
      runtime: 'node' as const,
      files: [
        {
          path: `${marker}-${n}.js`,
          content: `module.exports = { host: () => require('os').hostname(), mark: '${marker}' };\n`,
          sha256: '',
          bytes: 0,
        },
      ],
      payload: {
        mode: 'run' as const,
        root: '/job/sub',
        entry: `./${marker}-${n}`,
        only: null,
        stubNames: [],
        testTimeoutMs: 5000,
        outputBytes: 65536,
        builtins: [],
        tests: [
          {
            name: 'h.test.js',
            source: `const m = require('./${marker}-${n}');\ntest('h', () => { console.log('HOST=' + m.host()); expect(m.mark).toBe('${marker}'); });\n`,
          },
        ],
      },
      limits: LimitsSchema.parse({}),
    });
    const sb = await openSandbox('docker', HARNESS_DIR, { dockerPool: 2, dockerCell: 1 });
    try {
      const hosts: string[] = [];
      for (const n of [1, 2]) {
        const r = await sb.run(job(n));
        expect(r.frames.map((f) => f.type)).toContain('done');
        hosts.push(/HOST=(\w+)/.exec(r.stdout)?.[1] ?? '');
      }
      // Docker names a container's host after its id: two jobs, two containers.
      expect(hosts[0]).toMatch(/^[0-9a-f]{12}$/);
      expect(hosts[1]).not.toBe(hosts[0]);
      const docker = await dockerEngine();
      const waiting = (
        await docker.listContainers({ filters: { label: [`evigrade.owner=${process.pid}`], status: ['running'] } })
      ).map((c) => c.Id);
      expect(waiting.length).toBeGreaterThan(0);
      for (const id of waiting) {
        const info = await docker.getContainer(id).inspect();
        expect([info.HostConfig.NetworkMode, JSON.stringify(info).includes(marker)]).toEqual(['none', false]);
        await expectStartedLikeBwrap(info);
      }
      // The used containers are removed (off the job's critical path, so soon after).
      const gone = async (h: string): Promise<boolean> =>
        (await docker.listContainers({ all: true, filters: { label: [`evigrade.owner=${process.pid}`] } })).every(
          (c) => !c.Id.startsWith(h),
        );
      for (let i = 0; i < 50 && !((await gone(hosts[0] as string)) && (await gone(hosts[1] as string))); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect([await gone(hosts[0] as string), await gone(hosts[1] as string)]).toEqual([true, true]);
    } finally {
      sb.close();
    }
  });

  it('start none beyond the jobs a batch announced, and as many as the pool holds when nothing was announced', async () => {
    const { LimitsSchema } = await import('../../src/domain/rubric.js');
    const job = {
      runtime: 'node' as const,
      files: [{ path: 'solution.js', content: 'module.exports = 1;\n', sha256: '', bytes: 0 }],
      payload: {
        mode: 'run' as const,
        root: '/job/sub',
        entry: './solution',
        only: null,
        stubNames: [],
        testTimeoutMs: 5000,
        outputBytes: 65536,
        builtins: [],
        tests: [{ name: 'a.test.js', source: "test('a', () => expect(require('./solution')).toBe(1));\n" }],
      },
      limits: LimitsSchema.parse({}),
    };
    const waitingAfter = async (announce: number | null): Promise<number> => {
      const sb = await openSandbox('docker', HARNESS_DIR, { dockerPool: 2, dockerCell: 1 });
      try {
        if (announce !== null) sb.expect?.(announce);
        for (let i = 0; i < 3; i++) expect((await sb.run(job)).frames.map((f) => f.type)).toContain('done');
        // Containers are started ahead as a job takes one: by now every start asked for has been asked.
        const docker = await dockerEngine();
        const all = await docker.listContainers({ all: true, filters: { label: [`evigrade.owner=${process.pid}`] } });
        return all.filter((c) => c.State === 'running' || c.State === 'created').length;
      } finally {
        sb.close();
      }
    };
    expect([await waitingAfter(3), await waitingAfter(null)]).toEqual([0, 2]);
  });
});
