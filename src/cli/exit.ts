/** Exit codes: the one table is domain/exit-codes.ts. */
export { EXIT } from '../domain/exit-codes.js';
