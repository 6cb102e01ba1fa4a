// The four criteria every score is given on, declared once: the judge's answer, the report, the scores and the
// browser code of the report page (which imports this file alone from domain/, so it carries no zod).
export const CRITERIA = ['correctness', 'edge_cases', 'style', 'complexity'] as const;
export type Criterion = (typeof CRITERIA)[number];
