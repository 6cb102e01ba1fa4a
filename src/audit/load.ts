// The "slowed machine" of the flakiness check: one busy process per core while the reference runs, so a test that
// depends on the machine's speed (a wall-clock race, a timer it outruns) shows a different verdict.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

export async function withCpuLoad<T>(fn: () => Promise<T>): Promise<T> {
  const hogs: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  try {
    return await fn();
  } finally {
    // Only the processes started here, each by its own handle.
    await Promise.all(
      hogs.map(
        (h) =>
          new Promise<void>((resolve) => {
            if (h.exitCode !== null || h.signalCode !== null) return resolve();
            h.once('exit', () => resolve());
            h.kill('SIGKILL');
          }),
      ),
    );
  }
}
