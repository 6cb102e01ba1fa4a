// The entry: the command table, help and exit codes. A command's module (and everything it needs: the
// sandbox, ESLint's pool, fastify, BullMQ) is loaded only when that command runs, so `--help` and a usage
// error cost a bare Node start. Wiring of concrete adapters lives in src/commands/ (the composition root).
import { commandHelp, commandsOverview, COMMAND_DECLS, type CommandName } from './cli/commands.js';
import { EXIT } from './cli/exit.js';
import { exitCodesText } from './domain/exit-codes.js';

export { EXIT };

type Command = { run(argv: string[]): Promise<number> };

/**
 * Zod 4 compiles each object schema's parser with `new Function` the first time it parses one: worth it in `serve`
 * and `worker`, which parse the same shapes for hours, but a command that lives for seconds pays that compile for a
 * handful of parses (one submission graded: ≈ 9 ms of CPU; a class of 120, no slower: bench/README.md). Set before
 * the command's modules make their schemas.
 */
const brief = (load: () => Promise<Command>) => async (): Promise<Command> => {
  (await import('zod')).config({ jitless: true });
  return load();
};

const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  grade: brief(() => import('./commands/grade.js')),
  'check-rubric': brief(() => import('./commands/check-rubric.js')),
  audit: brief(() => import('./commands/audit.js')),
  sandbox: brief(() => import('./commands/sandbox.js')),
  report: brief(() => import('./commands/report.js')),
  verify: brief(() => import('./commands/verify.js')),
  serve: () => import('./commands/serve.js'),
  worker: () => import('./commands/worker.js'),
  history: brief(() => import('./commands/history.js')),
  override: brief(() => import('./commands/override.js')),
};

/** The commands' names (the build records them beside the bundle: bin/evigrade.js keeps a code cache for each). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

const HELP = `evigrade — evidence-grounded code grading

${commandsOverview()}

  \`evigrade <command> --help\` describes every option of a command. With --queue (or queue.url in the config,
  or EVIGRADE_QUEUE) grading runs on \`evigrade worker\` processes; reports are still written here, once.

${exitCodesText()}`;

const isCommand = (cmd: string): cmd is CommandName => Object.hasOwn(COMMAND_DECLS, cmd);

const isHelp = (a: string | undefined): boolean => a === '--help' || a === '-h' || a === 'help';

export async function run(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || isHelp(cmd)) {
    process.stdout.write(HELP);
    return cmd ? EXIT.ok : EXIT.usage;
  }
  const name = isCommand(cmd) ? cmd : null;
  const load = name ? COMMANDS[name] : undefined;
  if (name && rest.some(isHelp)) {
    process.stdout.write(commandHelp(name));
    return EXIT.ok;
  }
  try {
    if (!load) {
      const { EvigradeError } = await import('./domain/errors.js');
      throw new EvigradeError('USAGE', `unknown command "${cmd}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    }
    return await (await load()).run(rest);
  } catch (e) {
    const { ERROR_TABLE, isEvigradeError } = await import('./domain/errors.js');
    if (!isEvigradeError(e)) throw e;
    process.stderr.write(`evigrade: error ${e.code}: ${e.message}\n`);
    return ERROR_TABLE[e.code].exit;
  }
}
