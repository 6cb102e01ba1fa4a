// The host programs the test suite starts, each with the Debian package that installs it (scripts/setup.sh
// installs them all; tests/unit/setup-script.test.ts keeps the two lists in step). A test that needs one and
// finds it missing says so, naming the package, instead of failing on a symptom ("did not answer on port N").
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

interface Tool {
  readonly pkg: string;
  /** Whether the host has it, decided the way the test that uses it would find it. */
  readonly present: () => boolean;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const pythonImports = (module: string): boolean =>
  existsSync('/usr/bin/python3') && spawnSync('/usr/bin/python3', ['-c', `import ${module}`]).status === 0;

export const TOOLS = {
  'redis-server': { pkg: 'redis-server', present: () => onPath('redis-server') },
  postgres: {
    pkg: 'postgresql',
    present: () => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').length > 0,
  },
  chromium: { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  python3: { pkg: 'python3', present: () => existsSync('/usr/bin/python3') },
  pytest: { pkg: 'python3-pytest', present: () => pythonImports('pytest') },
  radon: { pkg: 'radon', present: () => pythonImports('radon') },
  bwrap: { pkg: 'bubblewrap', present: () => onPath('bwrap') },
} as const satisfies Record<string, Tool>;

export type ToolName = keyof typeof TOOLS;

/** Null when the tool is there; otherwise the sentence a failing test shows. */
export function missingTool(name: ToolName): string | null {
  const { pkg } = TOOLS[name];
  return TOOLS[name].present()
    ? null
    : `${name} is not installed: apt-get install ${pkg} (bash scripts/setup.sh installs every package the tests use)`;
}

/** Throws the "not installed" sentence when the tool is missing. */
export function requireTool(name: ToolName): void {
  const missing = missingTool(name);
  if (missing) throw new Error(missing);
}
