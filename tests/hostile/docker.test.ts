// Docker-specific lifecycle: leftovers of a crashed grader are removed at start; nothing outlives a run.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dockerAvailable, engine as dockerEngine } from '../../src/adapters/sandbox/docker.js';
import { openSandbox } from '../../src/adapters/sandbox/registry.js';
import { HARNESS_DIR, inlineRubric, inlineSubmission } from '../helpers.js';
import { collectExpected, gradeDeterministic } from '../../src/pipeline.js';
import { analysisPool } from '../helpers.js';

const engine = await dockerAvailable();
if (!engine.ok && process.env.EVIGRADE_REQUIRE_DOCKER === '1') throw new Error(`Docker is required here: ${engine.reason}`);
// Other test files may run Docker jobs at the same time (other processes): look at labels, not at everything.
const withLabel = async (label: string): Promise<string[]> => (await (await dockerEngine()).listContainers({ all: true, filters: { label: [label] } })).map((c) => c.Id);
const ours = (): Promise<string[]> => withLabel(`evigrade.owner=${process.pid}`);

describe.skipIf(!engine.ok)(`docker backend lifecycle${engine.ok ? '' : ` (skipped: ${engine.reason})`}`, () => {
  it('removes containers a dead grader left behind when a sandbox opens, and its own when it closes', async () => {
    (await openSandbox('docker', HARNESS_DIR)).close(); // builds the image if needed
    const images = await (await dockerEngine()).listImages({ filters: { reference: ['evigrade-sandbox'] } });
    const tag = images[0]?.RepoTags?.[0] as string;
    const orphan = await (await dockerEngine()).createContainer({ Image: tag, Cmd: ['/usr/bin/node', '-e', '0'], Labels: { 'evigrade.sandbox': '1', 'evigrade.owner': '2147483000' }, HostConfig: { NetworkMode: 'none' } });
    expect(await withLabel('evigrade.sandbox')).toContain(orphan.id);
    const sb = await openSandbox('docker', HARNESS_DIR);
    expect(await withLabel('evigrade.sandbox')).not.toContain(orphan.id);
    const rubric = inlineRubric({ 'x.test.js': "const { f } = require('./solution'); test('f', () => expect(f()).toBe(1));" });
    const report = await gradeDeterministic(inlineSubmission({ 'solution.js': 'module.exports = { f: () => 1 };' }), rubric, await collectExpected(rubric, sb), {
      sandbox: sb, analysis: analysisPool(), now: () => new Date(), tools: {}, maxResumes: 0,
    });
    expect([report.sandbox.backend, report.tests.map((t) => t.status)]).toEqual(['docker', ['passed']]);
    // The pids cgroup that keeps a container's record of refused forks is gone once the run is read.
    const pidsGroups = '/sys/fs/cgroup/pids/evigrade';
    expect(existsSync(pidsGroups) ? readdirSync(pidsGroups).filter((n) => n.startsWith(`${process.pid}-docker-`)) : []).toEqual([]);
    sb.close();
    for (let i = 0; i < 50 && (await ours()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await ours()).toEqual([]);
  });
});
