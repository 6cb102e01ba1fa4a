// JavaScript and TypeScript mutants from StrykerJS's own instrumenter (@stryker-mutator/instrumenter): its
// parser, its mutators and its printed replacements. We take the mutants it reports and apply each to the source
// on its own (one file per mutant), rather than its mutant-switching output, so a mutant runs in the same job
// as a submission would.
import { Instrumenter } from '@stryker-mutator/instrumenter';
import type { OperatorClass } from '../domain/audit.js';
import { positionsToOffset, toMutants, type MutantSite, type RawSite } from './sites.js';

/** StrykerJS's mutator names → the field's operator classes. */
export const STRYKER_CLASSES = {
  ArithmeticOperator: 'arithmetic',
  ArrayDeclaration: 'array',
  ArrowFunction: 'block',
  AssignmentOperator: 'assignment',
  BlockStatement: 'block',
  BooleanLiteral: 'boolean',
  ConditionalExpression: 'conditional',
  EqualityOperator: 'equality',
  LogicalOperator: 'logical',
  MethodExpression: 'method',
  ObjectLiteral: 'object',
  OptionalChaining: 'optional-chaining',
  Regex: 'regex',
  StringLiteral: 'string',
  UnaryOperator: 'unary',
  UpdateOperator: 'update',
} as const satisfies Record<string, OperatorClass>;

const quiet = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
};

const classOf = (mutatorName: string): OperatorClass =>
  (STRYKER_CLASSES as Record<string, OperatorClass>)[mutatorName] ?? 'block';

/** Every mutant StrykerJS makes of one JS/TS file (its name's extension picks the parser). */
export async function jsMutants(file: string, text: string): Promise<MutantSite[]> {
  const instrumenter = new Instrumenter(quiet as never);
  const result = await instrumenter.instrument([{ name: file, content: text, mutate: true }], {
    plugins: null,
    excludedMutations: [],
    ignorers: [],
    noHeader: true,
  });
  const offset = positionsToOffset(text);
  const raw: RawSite[] = result.mutants.map((m) => ({
    // StrykerJS's locations are 0-based lines and columns.
    start: offset(m.location.start.line, m.location.start.column),
    end: offset(m.location.end.line, m.location.end.column),
    operator: classOf(m.mutatorName),
    mutator: m.mutatorName,
    replacement: m.replacement,
  }));
  return toMutants(file, text, raw);
}
