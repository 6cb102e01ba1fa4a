// Correct answers, but at import it goes looking for things that are not its
// business. Inside the sandbox every attempt should fail; what it found is
// printed (stdout is kept by the grader, not by the report).
import { readFileSync, readdirSync } from 'node:fs';

const found = {};
const attempt = (label, fn) => {
  try {
    const v = fn();
    found[label] = `GOT ${String(v).slice(0, 120).replace(/\s+/g, ' ')}`;
  } catch (e) {
    found[label] = `failed: ${e.code ?? e.name}: ${String(e.message).slice(0, 80)}`;
  }
};

attempt('env.HF_TOKEN', () => {
  if (process.env.HF_TOKEN === undefined) throw Object.assign(new Error('unset'), { code: 'UNSET' });
  return process.env.HF_TOKEN;
});
attempt('env keys', () => Object.keys(process.env).join(','));
attempt('/etc/shadow', () => readFileSync('/etc/shadow', 'utf8'));
attempt('/etc/passwd', () => readFileSync('/etc/passwd', 'utf8'));
attempt('/root', () => readdirSync('/root').join(','));
attempt('/root/.ssh', () => readdirSync('/root/.ssh').join(','));
attempt('/work', () => readdirSync('/work').join(','));
attempt('/work/main/submissions', () => readdirSync('/work/main/submissions').join(','));
attempt('../', () => readdirSync(new URL('../', import.meta.url)).join(','));
attempt('../../', () => readdirSync(new URL('../../', import.meta.url)).join(','));
attempt('../correct-alice.js', () => readFileSync(new URL('../correct-alice.js', import.meta.url), 'utf8'));
attempt('hidden test ./leap.spec.js', () => readFileSync(new URL('./leap.spec.js', import.meta.url), 'utf8'));
attempt('own folder', () => readdirSync(new URL('./', import.meta.url)).join(','));
attempt('/proc/1/environ', () => readFileSync('/proc/1/environ', 'utf8'));
attempt('/proc/self/fd', () => readdirSync('/proc/self/fd').join(','));
attempt('fd 0 (stdin payload)', () => readFileSync(0, 'utf8'));
attempt('/tmp listing', () => readdirSync('/tmp').join(','));

const probe = async (label, url) => {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1500) });
    found[label] = `GOT HTTP ${res.status}`;
  } catch (e) {
    found[label] = `failed: ${e.cause?.code ?? e.name}: ${String(e.cause?.message ?? e.message).slice(0, 80)}`;
  }
};
await probe('fetch 127.0.0.1', 'http://127.0.0.1:8080/');
await probe('fetch metadata 169.254.169.254', 'http://169.254.169.254/latest/meta-data/');

console.log(`SECRETS-PROBE ${JSON.stringify(found)}`);

export const isLeap = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
