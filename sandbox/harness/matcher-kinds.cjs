'use strict';
// What each of Jest's built-in matchers reads of a value the submission made, and so how guard.cjs prepares that value
// before the matcher runs. Exhaustive over the registry of the `expect` the harness bundles: guard.cjs refuses to start
// on a matcher missing here (a new Jest's matcher is classified before it can compare anything), and
// tests/unit/matcher-kinds.test.ts compares this table with the registry of the `expect` package itself.
//   value    identity, typeof or a number: nothing of the value's own code runs
//   shallow  a Proxy would answer the matcher's question (toContain's indexOf, toBeInstanceOf's prototype walk): its
//            traps are asked once, into a copy
//   length   reads `length` (a getter's answer read once)
//   deep     Jest's `equals` on the received value (accessors read once, the expected value's named properties read once)
//   calls    `equals` on a mock's recorded arguments (the same, per call)
//   returns  `equals` on a mock's recorded return values (the same, per result)
//   count    counts a mock's calls or results: only that it is a mock the test made
//   throws   the thrown value's message, name and what the expected value names (read once)
const MATCHER_KINDS = Object.freeze({
  toBe: 'value',
  toBeCloseTo: 'value',
  toBeDefined: 'value',
  toBeFalsy: 'value',
  toBeGreaterThan: 'value',
  toBeGreaterThanOrEqual: 'value',
  toBeLessThan: 'value',
  toBeLessThanOrEqual: 'value',
  toBeNaN: 'value',
  toBeNull: 'value',
  toBeTruthy: 'value',
  toBeUndefined: 'value',
  toBeInstanceOf: 'shallow',
  toContain: 'shallow',
  toMatch: 'shallow',
  toHaveLength: 'length',
  toContainEqual: 'deep',
  toEqual: 'deep',
  toHaveProperty: 'deep',
  toMatchObject: 'deep',
  toStrictEqual: 'deep',
  toHaveBeenCalledWith: 'calls',
  toHaveBeenLastCalledWith: 'calls',
  toHaveBeenNthCalledWith: 'calls',
  toHaveReturnedWith: 'returns',
  toHaveLastReturnedWith: 'returns',
  toHaveNthReturnedWith: 'returns',
  toHaveBeenCalled: 'count',
  toHaveBeenCalledTimes: 'count',
  toHaveReturned: 'count',
  toHaveReturnedTimes: 'count',
  toThrow: 'throws',
});

module.exports = { MATCHER_KINDS };
