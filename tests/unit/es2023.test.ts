// The change-array-by-copy methods jobs get from sandbox/harness/es2023.cjs (their V8 feature is off in jobs,
// runtime/node-flags.ts JOB_V8_FEATURES), checked against the native ones of the node running this test: same result
// or the same error, for arrays with holes, array-likes, typed arrays of every kind and hostile arguments.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

type Method = (this: unknown, ...args: unknown[]) => unknown;
type ArrayMethods = Record<'toReversed' | 'toSorted' | 'toSpliced' | 'with', Method>;
type TypedArrayMethods = Record<'toReversed' | 'toSorted' | 'with', Method>;
const { arrayMethods, typedArrayMethods } = createRequire(import.meta.url)('../../sandbox/harness/es2023.cjs') as {
  arrayMethods: ArrayMethods;
  typedArrayMethods: TypedArrayMethods;
};
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as TypedArrayMethods;
const ArrayProto = Array.prototype as unknown as ArrayMethods;

type Outcome = { value: unknown } | { error: string };
function outcome(fn: () => unknown): Outcome {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}
/** Same outcome, and a result of the same kind (a plain Array, or a typed array of the receiver's own type). */
function same(a: Outcome, b: Outcome): void {
  expect(a).toEqual(b);
  if ('value' in a && 'value' in b) expect(Object.getPrototypeOf(a.value)).toBe(Object.getPrototypeOf(b.value));
}

// Indices and counts as a submission might pass them: in and out of range, negative, fractional, infinite, strings,
// undefined, objects with valueOf.
const arg = fc.oneof(
  fc.integer({ min: -12, max: 12 }),
  fc.double({ noNaN: false, min: -20, max: 20 }),
  fc.constantFrom(undefined, null, Infinity, -Infinity, '2', '-1', 'x', true, { valueOf: () => 1 }, -0),
);
const element = fc.oneof(fc.integer(), fc.constantFrom(undefined, null, 'b', 'a', 'B', 10, 9, 1.5, -0, NaN));
// Sparse arrays too: a hole reads as undefined in every one of these methods.
const array = fc.sparseArray(element, { maxLength: 12 });
const comparator = fc.constantFrom(
  undefined,
  (a: number, b: number) => a - b,
  (a: unknown, b: unknown) => String(b).localeCompare(String(a)),
  () => 0,
);

describe('es2023.cjs array methods, against the native ones', () => {
  it('toReversed, toSorted, toSpliced and with agree on arrays with holes and odd arguments', () => {
    fc.assert(
      fc.property(
        array,
        arg,
        arg,
        fc.array(element, { maxLength: 3 }),
        comparator,
        fc.nat({ max: 3 }),
        (arr, a, b, items, cmp, argc) => {
          same(
            outcome(() => arrayMethods.toReversed.call(arr)),
            outcome(() => ArrayProto.toReversed.call(arr)),
          );
          same(
            outcome(() => arrayMethods.toSorted.call(arr, cmp)),
            outcome(() => ArrayProto.toSorted.call(arr, cmp)),
          );
          same(
            outcome(() => arrayMethods.with.call(arr, a, 'v')),
            outcome(() => ArrayProto.with.call(arr, a, 'v')),
          );
          const args = [a, b, ...items].slice(0, argc === 3 ? 2 + items.length : argc);
          same(
            outcome(() => arrayMethods.toSpliced.call(arr, ...args)),
            outcome(() => ArrayProto.toSpliced.call(arr, ...args)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('works on array-likes and strings, and refuses null, undefined and a comparator that is not a function', () => {
    const receivers: unknown[] = [
      { length: 3, 0: 'a', 2: 'c' },
      { length: '2', 0: 1, 1: 0 },
      'abc',
      { length: -5 },
      42,
      null,
      undefined,
    ];
    for (const r of receivers) {
      for (const name of ['toReversed', 'toSorted', 'toSpliced'] as const) {
        same(
          outcome(() => arrayMethods[name].call(r, 1)),
          outcome(() => ArrayProto[name].call(r, 1)),
        );
      }
      same(
        outcome(() => arrayMethods.with.call(r, 0, 'z')),
        outcome(() => ArrayProto.with.call(r, 0, 'z')),
      );
    }
    for (const bad of [1, 'x', {}, null]) {
      same(
        outcome(() => arrayMethods.toSorted.call([2, 1], bad)),
        outcome(() => ArrayProto.toSorted.call([2, 1], bad)),
      );
    }
    // A function as the index is named as V8 names it (its source, cut past 128 characters), through
    // Function.prototype.toString as it is at the call: in a job, the printer that hides the tests' code.
    const long = new Function('a', `return a + ${'1 + '.repeat(60)}0;`);
    for (const f of [long, (x: number) => x * 2]) {
      same(
        outcome(() => arrayMethods.with.call([], f)),
        outcome(() => ArrayProto.with.call([], f)),
      );
    }
    // A length past 2^32 - 1 is refused before any element is read.
    same(
      outcome(() => arrayMethods.toReversed.call({ length: 2 ** 32 })),
      outcome(() => ArrayProto.toReversed.call({ length: 2 ** 32 })),
    );
    same(
      outcome(() => arrayMethods.with.call({ length: 2 ** 32 }, 0, 1)),
      outcome(() => ArrayProto.with.call({ length: 2 ** 32 }, 0, 1)),
    );
  });

  it('leaves the receiver unchanged and has the built-ins’ names and lengths', () => {
    const arr = [3, 1, 2];
    arrayMethods.toSorted.call(arr);
    arrayMethods.toReversed.call(arr);
    arrayMethods.toSpliced.call(arr, 0, 1);
    arrayMethods.with.call(arr, 0, 9);
    expect(arr).toEqual([3, 1, 2]);
    for (const name of ['toReversed', 'toSorted', 'toSpliced', 'with'] as const) {
      const fn = arrayMethods[name];
      expect([fn.name, fn.length]).toEqual([ArrayProto[name].name, ArrayProto[name].length]);
      expect('prototype' in fn).toBe(false);
    }
  });
});

describe('es2023.cjs typed-array methods, against the native ones', () => {
  const kinds = [
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
  ];
  it('toReversed, toSorted and with agree for every number kind, with the value converted as the kind does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.array(fc.double({ min: -300, max: 300 }), { maxLength: 10 }),
        arg,
        fc.oneof(fc.double(), fc.constantFrom('7', 1000, -1, NaN, undefined)),
        (Kind, xs, index, value) => {
          const ta = new Kind(xs);
          same(
            outcome(() => typedArrayMethods.toReversed.call(ta)),
            outcome(() => TypedArrayProto.toReversed.call(ta)),
          );
          same(
            outcome(() => typedArrayMethods.toSorted.call(ta)),
            outcome(() => TypedArrayProto.toSorted.call(ta)),
          );
          same(
            outcome(() => typedArrayMethods.toSorted.call(ta, (a: number, b: number) => b - a)),
            outcome(() => TypedArrayProto.toSorted.call(ta, (a: number, b: number) => b - a)),
          );
          same(
            outcome(() => typedArrayMethods.with.call(ta, index, value)),
            outcome(() => TypedArrayProto.with.call(ta, index, value)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('converts with ToBigInt for BigInt kinds, before the index is checked, and refuses what is not a typed array', () => {
    const big = new BigInt64Array([3n, -1n, 2n]);
    for (const [index, value] of [
      [0, 5n],
      [1, 5],
      [9, 5],
      [9, 5n],
      [-1, '12'],
    ] as const) {
      same(
        outcome(() => typedArrayMethods.with.call(big, index, value)),
        outcome(() => TypedArrayProto.with.call(big, index, value)),
      );
    }
    same(
      outcome(() => typedArrayMethods.toSorted.call(big)),
      outcome(() => TypedArrayProto.toSorted.call(big)),
    );
    for (const r of [[1, 2], { length: 1, 0: 1 }, null, new ArrayBuffer(4)]) {
      for (const name of ['toReversed', 'toSorted'] as const) {
        expect(outcome(() => typedArrayMethods[name].call(r))).toEqual({
          error: 'TypeError: this is not a typed array.',
        });
        expect(outcome(() => TypedArrayProto[name].call(r))).toMatchObject({
          error: expect.stringMatching(/^TypeError/),
        });
      }
    }
  });
});
