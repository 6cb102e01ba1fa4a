// The instructor's item decisions as the history holds them: an override is recorded as a new grading whose
// report carries the decision (who, why, when) on its item, so the latest grading of a submission holds every
// decision so far, hash-chained like any grading. A regrade reads them back from there.
import type { HistoryStore } from '../../domain/history.js';
import { overridesOf, type ItemOverride, type OverrideSource } from '../../domain/items.js';

export const historyOverrides = (history: Pick<HistoryStore, 'latest'>): OverrideSource => ({
  async forSubmission(rubricId, submissionId) {
    const last = await history.latest(rubricId, submissionId);
    return last ? overridesOf(last.scores.items) : [];
  },
});

/** Decisions from several places, each kept once (the same decision may be on file and in the history). */
export const allOverrides = (sources: readonly OverrideSource[]): OverrideSource => ({
  async forSubmission(rubricId, submissionId) {
    const seen = new Set<string>();
    const all: ItemOverride[] = [];
    for (const s of sources)
      for (const o of await s.forSubmission(rubricId, submissionId)) {
        const key = JSON.stringify([o.item, o.applies, o.by, o.why, o.at]);
        if (seen.has(key)) continue;
        seen.add(key);
        all.push(o);
      }
    return all;
  },
});
