// tree-sitter's Python grammar as WebAssembly (web-tree-sitter + tree-sitter-python's own .wasm, versions
// pinned together: grammar ABI 15), loaded once per analysis thread before any file's CPU meter starts.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Parser, Tree } from 'web-tree-sitter';

let parser: Parser | null = null;
/** UTF-16 units per read: under the 10 KB (5,120 units, terminator included) the runtime copies. */
const CHUNK = 4096;

export const pythonParserReady = (): boolean => parser !== null;

/** Loads the runtime and the grammar (≈ 20 ms of CPU, once per thread). */
export async function preparePythonParser(): Promise<void> {
  if (parser) return;
  const req = createRequire(import.meta.url);
  // Imported here, not at the top: a thread that only ever analyses JavaScript never loads it.
  const { Language, Parser } = await import('web-tree-sitter');
  await Parser.init();
  const grammar = await Language.load(
    join(dirname(req.resolve('tree-sitter-python/package.json')), 'tree-sitter-python.wasm'),
  );
  const p = new Parser();
  p.setLanguage(grammar);
  parser = p;
}

/** Parses one file; the caller deletes the tree (its memory lives in the WebAssembly heap). */
export function parsePython(code: string): Tree {
  if (!parser) throw new Error('the Python parser is not loaded (preparePythonParser first)');
  // Chunks that fit web-tree-sitter's 10 KB input buffer: handed the whole string, it reports the rest of
  // the file as each chunk's length but copies 10 KB, and re-reads: minutes for a 400 KB docstring.
  const tree = parser.parse((index) => (index < code.length ? code.slice(index, index + CHUNK) : undefined));
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}
