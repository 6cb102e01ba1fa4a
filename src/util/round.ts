/** Scores are reported to two decimals, everywhere the same way. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;
