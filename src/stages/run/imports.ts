// Names the hidden tests import from relative modules. When tests are collected
// without a submission, the stub entry must export these names or an ESM test
// file would fail to link.
const NAMED_IMPORT = /import\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"](\.{1,2}\/[^'"]*)['"]/g;

export function importedNames(sources: readonly string[]): string[] {
  const names = new Set<string>();
  for (const src of sources) {
    for (const m of src.matchAll(NAMED_IMPORT)) {
      for (const part of (m[1] ?? '').split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]
          ?.trim();
        if (name && /^[A-Za-z_$][\w$]*$/.test(name)) names.add(name);
      }
    }
  }
  return [...names].sort();
}
