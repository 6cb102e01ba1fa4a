import { createRequire } from 'node:module';
import type * as EstreeModule from '@typescript-eslint/typescript-estree';

// The TypeScript-ESTree parser loads TypeScript itself (~0.4 s of CPU). Analysis reuses ESLint's AST, so the
// parser is needed only for a file ESLint could not parse and for prompts; it is loaded on that first use.
type Estree = typeof EstreeModule;
let lib: Estree | null = null;
export const estree = (): Estree =>
  (lib ??= createRequire(import.meta.url)('@typescript-eslint/typescript-estree') as Estree);
