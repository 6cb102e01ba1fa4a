// `evigrade sandbox build`: the job root file system, imported as the Docker image.
import { openSandbox } from '../adapters/sandbox/registry.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { HARNESS_DIR } from './shared.js';

/** `evigrade sandbox build`: builds the job root file system and imports it as the Docker image. */
export async function run(argv: string[]): Promise<number> {
  if (argv[0] !== 'build' || argv.length !== 1) throw new EvigradeError('USAGE', 'usage: evigrade sandbox build');
  const sb = await openSandbox('docker', HARNESS_DIR);
  sb.close();
  process.stdout.write('sandbox image ready (docker)\n');
  return EXIT.ok;
}
