import type { ComplexityItem, EvidenceItem, LintItem, SandboxEvent, TestResult } from '../../domain/report.js';
import { canonicalJson, sha256 } from '../../util/hash.js';

/** The evidence bundle: every fact with a stable id, hashed over canonical JSON. */
export function buildEvidence(
  tests: readonly TestResult[],
  violations: readonly SandboxEvent[],
  lint: readonly LintItem[] = [],
  complexity: readonly ComplexityItem[] = [],
): { hash: string; items: EvidenceItem[] } {
  const items: EvidenceItem[] = [
    ...tests.map((t): EvidenceItem => ({
      id: t.id,
      kind: 'test',
      name: t.name,
      status: t.status,
      weight: t.weight,
      edgeCase: t.edgeCase,
      message: t.message,
    })),
    ...violations.map((v): EvidenceItem => ({ id: v.id, kind: 'sandbox', event: v.event, detail: v.detail })),
    ...lint,
    ...complexity,
  ];
  return { hash: `sha256:${sha256(canonicalJson(items))}`, items };
}
