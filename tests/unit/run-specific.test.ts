// Nothing a run alone decides reaches evidence (stages/score/run-specific.ts): addresses, pids, temporary
// directories and measured durations become stable tokens, numbered by first appearance across a report.
import { describe, expect, it } from 'vitest';
import { runSpecificCanon } from '../../src/stages/score/run-specific.js';

describe('run-specific text', () => {
  it('numbers addresses by first appearance, so one object twice still reads as one', () => {
    const canon = runSpecificCanon();
    expect(
      canon('assert <bank_account.Box object at 0x7f2c1a2b3c4d> == <bank_account.Box object at 0x7f2c1a2b3c4d>'),
    ).toBe('assert <bank_account.Box object at 0x…1> == <bank_account.Box object at 0x…1>');
    expect(canon('<function f at 0x7f0000000010> is not <built-in method g of X object at 0x55d1c2>')).toBe(
      '<function f at 0x…2> is not <built-in method g of X object at 0x…3>',
    );
    // Same numbering across texts of one report; a fresh report starts again.
    expect(canon('again 0x7f2c1a2b3c4d')).toBe('again 0x…1');
    expect(runSpecificCanon()('again 0x7f2c1a2b3c4d')).toBe('again 0x…1');
  });

  it("gives a cut repr's address tail (pytest's saferepr) the number of the whole address", () => {
    const canon = runSpecificCanon();
    expect(
      canon(
        'assert [<solution.No...7f24ea4a92d0>] == []\n  Left contains 3 more items, first extra item: <solution.Node object at 0x7f24ea4a92d0>',
      ),
    ).toBe(
      'assert [<solution.No...0x…1>] == []\n  Left contains 3 more items, first extra item: <solution.Node object at 0x…1>',
    );
    expect(canon('<solution.Other...55d1c2a0b3>')).toBe('<solution.Other...0x…2>');
  });

  it('leaves what a student chose alone: short hex, numbers, limits', () => {
    const canon = runSpecificCanon();
    for (const s of [
      "assert '0xff' == '0xfe'",
      'expected 12345 to equal 12346',
      'Exceeded timeout of 5000 ms for a test',
      'killed: the job exceeded its 2000 ms time limit while this test ran',
      '/job/sub/leap.js:3',
    ])
      expect(canon(s)).toBe(s);
  });

  it('replaces pids, temporary directory names and measured durations', () => {
    const canon = runSpecificCanon();
    expect(canon("FileNotFoundError: '/tmp/tmpk3j_9x2a/out.txt' (pid 4242, /proc/4242/status)")).toBe(
      "FileNotFoundError: '/tmp/…1/out.txt' (pid …1, /proc/…1/status)",
    );
    expect(canon('the call took 12.5 ms; wrote /tmp/x-AbC123 and /tmp/tmpk3j_9x2a')).toBe(
      'the call took … ms; wrote /tmp/…2 and /tmp/…1',
    );
  });

  it('keeps the pids every sandboxed run has alike (init, the process group), numbering the ones a run drew', () => {
    const canon = runSpecificCanon();
    const stable = "EACCES: open '/proc/1/environ'; kill(pid 1) and pid 0 refused; /proc/1/status";
    expect(canon(stable)).toBe(stable);
    // Beside them, a drawn pid is still numbered (as the first pid of the report: 1 and 0 took no number).
    expect(canon('read /proc/1/cmdline and /proc/4242/status (pid 4242, pid=77, /proc/10/fd)')).toBe(
      'read /proc/1/cmdline and /proc/…1/status (pid …1, pid=…2, /proc/…3/fd)',
    );
  });
});
