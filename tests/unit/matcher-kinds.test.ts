// The harness prepares a submission's value for each of Jest's built-in matchers by the matcher's kind
// (sandbox/harness/matcher-kinds.cjs). The table must name exactly the matchers of the `expect` package the harness
// bundles: one missing would compare a submission's value unprepared (the harness also refuses to start then), one
// extra is a matcher Jest no longer has.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { MATCHER_KINDS } = require('../../sandbox/harness/matcher-kinds.cjs') as {
  MATCHER_KINDS: Record<string, string>;
};

describe('matcher kinds', () => {
  it("classify every matcher of Jest's registry, and nothing else", () => {
    // In a process of its own: vitest keeps its own matchers under the same global symbol.
    const names = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '-e',
          "require('expect'); console.log(JSON.stringify(Object.keys(globalThis[Symbol.for('$$jest-matchers-object')].matchers)))",
        ],
        { encoding: 'utf8' },
      ),
    ) as string[];
    expect(names.length).toBeGreaterThan(30);
    expect(Object.keys(MATCHER_KINDS).sort()).toEqual([...names].sort());
  });
});
