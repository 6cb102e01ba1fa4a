// Issue 30: the realm's `Buffer` is its own class (npm `buffer`, evaluated in the Compartment), not Node's. Honest
// code that mixes the `Buffer` global, `require('buffer').Buffer`, and Buffers from fs, crypto, zlib and TextEncoder,
// and tests that compare them with Buffers the test itself made (toEqual, toStrictEqual, instanceof,
// Buffer.isBuffer, `.equals`), must behave as under Node. Node's verdict is not written down here: the same test file
// runs plainly in Node with Jest's own `expect` (tests/fakes/plain-jest.cjs) and the harness must agree test by test.
import { describe, expect, it } from 'vitest';
import { firstBackend, flagCodes, gradeInline, inlineRubric, plainJest, statuses } from '../helpers.js';

const SOLUTION = `const { Buffer: ModuleBuffer } = require('buffer');
const fs = require('fs');
const crypto = require('crypto');
const zlib = require('zlib');
exports.make = (s) => Buffer.from(s);
exports.fromModule = (s) => ModuleBuffer.from(s, 'utf8');
exports.alloc = (n) => Buffer.alloc(n, 1);
exports.kinds = (b) => [b instanceof Buffer, b instanceof ModuleBuffer, Buffer.isBuffer(b), ModuleBuffer.isBuffer(b), b instanceof Uint8Array];
exports.sameClass = () => ModuleBuffer === Buffer;
exports.own = () => fs.readFileSync(__filename);
exports.digest = (s) => crypto.createHash('sha256').update(s).digest();
exports.random = () => crypto.randomBytes(4);
exports.roundTrip = (s) => zlib.gunzipSync(zlib.gzipSync(Buffer.from(s)));
exports.encoded = (s) => new TextEncoder().encode(s);
exports.fromEncoded = (s) => Buffer.from(new TextEncoder().encode(s));
exports.concat = (b) => Buffer.concat([b, Buffer.from('b')]);
exports.text = (b) => b.toString('hex') + ':' + Buffer.from(b).toString('base64');
exports.equal = (a, b) => [a.equals(b), Buffer.compare(a, b)];
exports.json = (b) => JSON.parse(JSON.stringify(b));
exports.slice = (s) => Buffer.from(s).subarray(1, 3);
`;

const TESTS = `const s = require('./solution');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
test('toEqual a Buffer the test made', () => { expect(s.make('hi')).toEqual(Buffer.from('hi')); });
test('toStrictEqual a Buffer the test made', () => { expect(s.fromModule('hi')).toStrictEqual(Buffer.from('hi')); });
test('toEqual, wrong', () => { expect(s.make('hi')).toEqual(Buffer.from('ho')); });
test('not.toEqual another Buffer', () => { expect(s.make('hi')).not.toEqual(Buffer.from('ho')); });
test('toEqual an alloc', () => { expect(s.alloc(3)).toEqual(Buffer.from([1, 1, 1])); });
test('toEqual a Uint8Array', () => { expect(s.make('a')).toEqual(new Uint8Array([97])); });
test('toStrictEqual a Uint8Array', () => { expect(s.make('a')).toStrictEqual(new Uint8Array([97])); });
test('the global and the module are one class', () => { expect(s.sameClass()).toBe(true); });
test('its own Buffer, seen by itself', () => { expect(s.kinds(s.make('a'))).toEqual([true, true, true, true, true]); });
test('a test Buffer, seen by the submission', () => { expect(s.kinds(Buffer.from('a'))).toEqual([true, true, true, true, true]); });
test('an fs Buffer, seen by the submission', () => { expect(s.kinds(s.own())).toEqual([true, true, true, true, true]); });
test('a crypto Buffer, seen by the submission', () => { expect(s.kinds(s.digest('x'))).toEqual([true, true, true, true, true]); });
test('TextEncoder output is no Buffer', () => { expect(s.kinds(s.encoded('x'))).toEqual([false, false, false, false, true]); });
test('its Buffer, seen by the test', () => { const b = s.make('a'); expect([b instanceof Buffer, Buffer.isBuffer(b), b instanceof Uint8Array]).toEqual([true, true, true]); });
test('toBeInstanceOf Buffer', () => { expect(s.digest('x')).toBeInstanceOf(Buffer); });
test('fs content toEqual', () => { expect(s.own()).toEqual(fs.readFileSync(path.join(__dirname, 'solution.js'))); });
test('digest toEqual', () => { expect(s.digest('x')).toEqual(crypto.createHash('sha256').update('x').digest()); });
test('random bytes are a Buffer of 4', () => { const b = s.random(); expect([Buffer.isBuffer(b), b.length]).toEqual([true, 4]); });
test('zlib round trip', () => { expect(s.roundTrip('zip')).toEqual(Buffer.from('zip')); });
test('TextEncoder output toEqual', () => { expect(s.encoded('hé')).toEqual(new Uint8Array([104, 195, 169])); });
test('TextEncoder output toEqual a Buffer', () => { expect(s.encoded('h')).toEqual(Buffer.from('h')); });
test('Buffer from TextEncoder output', () => { expect(s.fromEncoded('hé')).toEqual(Buffer.from('hé')); });
test('concat a test Buffer', () => { expect(s.concat(Buffer.from('a'))).toEqual(Buffer.from('ab')); });
test('encodings', () => { expect(s.text(Buffer.from('hi'))).toBe('6869:aGk='); });
test('equals and compare across', () => { expect([...s.equal(s.make('a'), Buffer.from('a')), ...s.equal(Buffer.from('a'), s.make('b'))]).toEqual([true, 0, false, -1]); });
test('the test compares with equals', () => { expect(Buffer.from('a').equals(s.make('a'))).toBe(true); });
test('JSON of a Buffer', () => { expect(s.json(Buffer.from('ab'))).toEqual({ type: 'Buffer', data: [97, 98] }); });
test('subarray toEqual', () => { expect(s.slice('abcd')).toEqual(Buffer.from('bc')); });
test('toContain a byte', () => { expect(s.make('abc')).toContain(98); });
test('toHaveLength', () => { expect(s.make('héllo')).toHaveLength(6); });
`;

describe("the realm's Buffer, mixed with Node's", () => {
  it("gets Node's verdict for each test, with no flag", async () => {
    const jest = plainJest('buffer.test.js', { 'buffer.test.js': TESTS, 'solution.js': SOLUTION });
    expect(new Set(Object.values(jest))).toEqual(new Set(['passed', 'failed']));
    const r = await gradeInline(await firstBackend(), inlineRubric({ 'buffer.test.js': TESTS }), {
      'solution.js': SOLUTION,
    });
    const ours = Object.fromEntries(
      Object.entries(statuses(r)).map(([n, st]) => [n, st === 'passed' ? 'passed' : 'failed']),
    );
    expect([ours, flagCodes(r).filter((f) => f !== 'policy.fs')]).toEqual([jest, []]);
  });
});
