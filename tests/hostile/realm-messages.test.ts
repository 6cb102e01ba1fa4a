// Messages, not verdicts (issue 30): when an assertion fails, Jest's message formatting (jest-matcher-utils'
// replaceMatchedToAsymmetricMatcher, behind every toEqual, toStrictEqual and toMatchObject diff) asks each value in a
// deep copy of both sides whether it is an asymmetric matcher, and calls one on the received side with the value
// expected there: the hidden answer. A value of the submission's can carry an `asymmetricMatch` the guard's walk never
// saw (planted while Jest compares, by a class getter Jest reads: `Symbol.toStringTag`). The build patches that check
// through the asymmetric gate (scripts/build-harness.mjs), so only matchers test code made are asked. Here the planted
// method records what it is handed, prints it, and the submission tries to get it out through a later verdict and a
// thrown message; each attempt must get nothing, on every isolating backend and over POST /grade.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import { flagCodes, gradeInline, inlineRubric, isolatingBackends, messageOf, statuses } from '../helpers.js';
import { gradeOverHttp } from './http-grade.js';

const TESTS = {
  'leak.test.js': `const s = require('./solution');
test('toEqual', () => { expect(s.make()).toEqual({ box: { secret: 'hidden-1' } }); });
test('toStrictEqual, a class getter', () => { expect([s.noted()]).toStrictEqual([{ n: 1, note: 'hidden-2' }]); });
test('toEqual, a class getter', () => { expect({ at: s.noted() }).toEqual({ at: { n: 1, note: 'hidden-3' } }); });
test('heard nothing', () => { expect(s.heard()).toBe(0); });
test('echo', () => { expect(s.echo()).toEqual({ secret: 'hidden-1' }); });
test('thrown', () => { s.thrown(); });`,
};

// The box plants a recording asymmetricMatch on itself when Jest first asks for its type (after the guard's walk).
const SOLUTION = `const heard = [];
class Box {
  constructor() { this.n = 1; }
  get [Symbol.toStringTag]() {
    this.asymmetricMatch = (x) => { heard.push(x); console.log('heard ' + JSON.stringify(x)); return false; };
    return 'Object';
  }
}
// Jest's message formatting copies a value with its classes' getters read: this one's value votes on its match.
class Noted { constructor() { this.n = 1; } get note() { return { asymmetricMatch: (x) => { heard.push(x); return false; } }; } }
exports.make = () => ({ box: new Box() });
exports.noted = () => new Noted();
exports.heard = () => heard.length;
exports.echo = () => heard[0];
exports.thrown = () => { throw new Error('heard: ' + JSON.stringify(heard)); };`;

const STATUSES = {
  toEqual: 'failed',
  'toStrictEqual, a class getter': 'failed',
  'toEqual, a class getter': 'failed',
  'heard nothing': 'passed',
  echo: 'failed',
  thrown: 'failed',
};
/** Everything the submission could have carried out: its printed output, and the message of what it threw. */
const carried = (r: Report): unknown[] => [
  r.tests.filter((t) => t.output !== undefined).map((t) => [t.name, t.output?.stdout]),
  messageOf(r, 'thrown').split('\n')[0],
];
const NOTHING = [[], 'Error: heard: []'];

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))(
  'a failing assertion hands the submission nothing (%s)',
  (backend: ProcessBackendId) => {
    it('a planted asymmetricMatch is never asked while the failure message is made', async () => {
      const r = await gradeInline(backend, inlineRubric(TESTS), { 'solution.js': SOLUTION });
      expect([statuses(r), flagCodes(r), carried(r)]).toEqual([STATUSES, [], NOTHING]);
    });
  },
);

describe('over POST /grade', () => {
  it('the same: nothing heard, nothing carried out', async () => {
    const r = await gradeOverHttp(TESTS, { 'solution.js': SOLUTION });
    expect([statuses(r), flagCodes(r), carried(r)]).toEqual([STATUSES, [], NOTHING]);
  });
});
