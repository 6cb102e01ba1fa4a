// The entry: the command table, help and exit codes. A command's module (and everything it needs: the
// sandbox, ESLint's pool, fastify, BullMQ) is loaded only when that command runs, so `--help` and a usage
// error cost a bare Node start. Wiring of concrete adapters lives in src/commands/ (the composition root).
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

const COMMANDS: Record<string, () => Promise<Command>> = {
  grade: brief(() => import('./commands/grade.js')),
  'check-rubric': brief(() => import('./commands/check-rubric.js')),
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

  evigrade grade <submissions-dir|download.zip> --rubric <rubric.yaml> --out <dir>
        [--from canvas|moodle|blackboard|gradescope|auto] [--attempts latest|all]
        [--concurrency N] [--sandbox auto|docker|bwrap|unshare] [--force] [--unsafe-no-sandbox]
        [--no-llm] [--judge-endpoint URL --judge-model NAME]... [--config evigrade.config.yaml]
        [--queue redis://host:port] [--db <postgres://…|folder>]
  evigrade check-rubric <rubric.yaml>
  evigrade sandbox build            (imports the Docker image from the job root file system)
  evigrade report <out-dir> [--max-points N] [--to canvas|moodle|blackboard|csv] [--roster roster.csv]
        [--for students --out <student-dir> [--release]]   (a page and a JSON per student)
  evigrade verify <report.json> [--rubric <rubric.yaml> --submission <path>]
  evigrade verify --history --db <postgres://…|folder>
  evigrade serve --port N --rubrics <dir> [--host H] [--data <dir>] [--concurrency N] [--backlog N]
        [--queue redis://host:port] [--db <postgres://…|folder>]
  evigrade worker --queue redis://host:port [--concurrency N] [--sandbox auto|docker|bwrap|unshare]
  evigrade history --db <postgres://…|folder> [--rubric ID] [--submission ID] [--flag CODE] [--flagged] [--verify]
        [--diff A --diff B] [--batches] [--export BATCH --out DIR]
  evigrade override <out-dir> --submission ID --item ID --applies yes|no --why TEXT [--by WHO]
        [--db <postgres://…|folder>]

  With --queue (or queue.url in the config, or EVIGRADE_QUEUE) grading runs on
  \`evigrade worker\` processes; reports are still written here, once.

${exitCodesText()}`;

const isHelp = (a: string | undefined): boolean => a === '--help' || a === '-h' || a === 'help';

/** The help lines of one command (its usage and continuation lines). */
function commandHelp(cmd: string): string {
  const lines = HELP.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  evigrade ${cmd} `) || l === `  evigrade ${cmd}`);
  const own = [lines[i] as string];
  for (let j = i + 1; j < lines.length && /^ {8}/.test(lines[j] as string); j++) own.push(lines[j] as string);
  return `usage:\n${own.join('\n')}\n`;
}

export async function run(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || isHelp(cmd)) {
    process.stdout.write(HELP);
    return cmd ? EXIT.ok : EXIT.usage;
  }
  const load = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (load && rest.some(isHelp)) {
    process.stdout.write(commandHelp(cmd));
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
