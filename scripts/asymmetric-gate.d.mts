// Types for scripts/asymmetric-gate.mjs (tests/unit/asymmetric-gate-build.test.ts imports it).
export interface GatePatch {
  file: RegExp;
  what: string;
  from: string;
  to: (counts: (v: string) => string) => string;
}
export const PATCHES: readonly GatePatch[];
export function patchJestSource(path: string, source: string, gatePath: string, applied?: Set<string>): string;
export function asymmetricGate(root: string, applied: Set<string>): unknown;
