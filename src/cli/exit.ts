/** Exit codes beside the error table's (documented in README "Exit codes"). */
export const EXIT = { ok: 0, someErrored: 1, usage: 2, referenceFailed: 3, interrupted: 130 } as const;
