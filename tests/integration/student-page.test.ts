// The student page (issue 33) in Debian's Chromium (driven by playwright-core, as report-page.test.ts) at a
// phone's 375 px and a desktop's 1400 px, on committed reports graded for real with a visibility policy
// (tests/fixtures/student-page): a passing, a partial, a timed-out and a syntax-error submission in JavaScript
// and in Python. Layout is measured in the DOM (nothing reaches past the screen, no sideways scrolling, text
// no smaller than 12 px), the page runs no script and fetches nothing, and each page is compared with its
// reference screenshot (pixelmatch, as report-page.test.ts; regenerate with UPDATE_SCREENSHOTS=1 and look at
// them before committing).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pixelmatch from 'pixelmatch';
import { chromium, type Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudentReportSchema } from '../../src/domain/student.js';
import { stoppedAtLimit } from '../../src/stages/run/attempts.js';
import { ROOT } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const have = existsSync(CHROMIUM);
const mustRun = process.env.CI === 'true';
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'student-page');
const REFS = join(FIXTURES, 'screenshots');
const OUT = join(ROOT, 'test-results');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const MAX_DIFF = 0.0001;
const WIDTHS = [375, 1400] as const;
/** [submission id, language, case]: each is a committed report. */
const PAGES = [
  ['correct-alice', 'javascript', 'passing'],
  ['partial-bob', 'javascript', 'partial'],
  ['fn-loop-ken', 'javascript', 'timed out'],
  ['syntax-error-carol', 'javascript', 'syntax error'],
  ['correct-ana', 'python', 'passing'],
  ['partial-ben', 'python', 'partial'],
  ['loops', 'python', 'timed out'],
  ['syntax', 'python', 'syntax error'],
] as const;

const cli = (args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(process.execPath, [join(ROOT, 'bin', 'evigrade.js'), ...args], (e, out) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out }),
    ),
  );

function compare(actual: Buffer, ref: string, name: string): number {
  if (UPDATE || !existsSync(ref)) {
    if (!UPDATE) throw new Error(`no reference screenshot ${ref}: run UPDATE_SCREENSHOTS=1 npx vitest run ${name}`);
    writeFileSync(ref, actual);
  }
  const a = PNG.sync.read(actual);
  const b = PNG.sync.read(readFileSync(ref));
  if (a.width !== b.width || a.height !== b.height) {
    writeFileSync(join(OUT, `${name}.actual.png`), actual);
    return 1;
  }
  const diff = new PNG({ width: a.width, height: a.height });
  const n = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0.1 });
  if (n / (a.width * a.height) > MAX_DIFF) {
    writeFileSync(join(OUT, `${name}.actual.png`), actual);
    writeFileSync(join(OUT, `${name}.diff.png`), PNG.sync.write(diff));
  }
  return n / (a.width * a.height);
}

describe.skipIf(!have && !mustRun)(
  `the student page in Chromium${have ? '' : ' (skipped: /usr/bin/chromium not installed)'}`,
  () => {
    let browser: Browser;
    const out = mkdtempSync(join(tmpdir(), 'evigrade-student-page-'));
    beforeAll(async () => {
      mkdirSync(OUT, { recursive: true });
      // The real command, on the committed reports.
      const r = await cli(['report', FIXTURES, '--for', 'students', '--out', out]);
      expect([r.code, r.out.trim()]).toEqual([0, `${out}: a page and a JSON for each of 8 students`]);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--font-render-hinting=none',
        ],
      });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('each case shows what it is: outcomes, the visible failure, the timeout, the syntax error', () => {
      const view = (id: string) => StudentReportSchema.parse(JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8')));
      const outcomes = (id: string) =>
        view(id)
          .tests.map((t) => t.status.slice(0, 2))
          .join(' ');
      expect(PAGES.map(([id]) => [id, outcomes(id)])).toEqual([
        ['correct-alice', 'pa pa pa pa pa pa pa pa pa pa pa'],
        ['partial-bob', 'pa pa pa fa pa fa pa pa pa fa pa'],
        ['fn-loop-ken', 'pa pa pa pa pa pa pa ti pa pa pa pa ti pa'],
        ['syntax-error-carol', 'er er er er er er er er er er er'],
        ['correct-ana', 'pa pa pa pa pa pa pa pa pa pa pa pa pa'],
        ['partial-ben', 'pa fa pa pa pa pa pa pa pa pa fa pa pa'],
        ['loops', 'ti ti pa'],
        ['syntax', 'er er er'],
      ]);
      expect(view('syntax-error-carol').lint.map((l) => [l.file, l.line, l.rule])).toEqual([
        ['leap.js', 2, 'parse-error'],
      ]);
      expect(view('syntax').tests[2]?.message).toBe(
        "E     solution.py:2\nE       return (\nE              ^\nE   SyntaxError: '(' was never closed",
      );
      expect(view('fn-loop-ken').events.map((e) => e.kind)).toEqual(['timeout']);
      // Issue 33, timeouts explained: the visible test that loops is a timeout at its own limit (the rubric's
      // test_timeout_ms, 2000 ms, not the job's 5000), said in its message, and the tests after it ran.
      expect(
        view('fn-loop-ken')
          .tests.slice(7, 9)
          .map((t) => [t.title, t.status, t.message]),
      ).toEqual([
        ['countWords > keeps apostrophes inside words', 'timeout', stoppedAtLimit(2000)],
        ['hidden test 9', 'passed', null],
      ]);
    });

    for (const width of WIDTHS)
      it(`at ${width} px: readable without sideways scrolling, no script, nothing fetched, as its reference screenshot`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 800 }, deviceScaleFactor: 1 });
        const requests: string[] = [];
        page.on('request', (q) => {
          if (!q.url().startsWith('file:')) requests.push(q.url());
        });
        try {
          const problems: string[] = [];
          const diffs: string[] = [];
          for (const [id] of PAGES) {
            await page.goto(pathToFileURL(join(out, `${id}.html`)).href);
            const m = await page.evaluate(() => {
              const W = document.documentElement.clientWidth;
              const outside: string[] = [];
              let smallest = 99;
              for (const e of Array.from(document.querySelectorAll('body *'))) {
                if (e.getBoundingClientRect().right > W + 0.5) outside.push(`${e.tagName}.${e.className}`);
                if ((e.textContent ?? '').trim())
                  smallest = Math.min(smallest, parseFloat(getComputedStyle(e).fontSize));
              }
              return {
                overflow: document.documentElement.scrollWidth - W,
                outside,
                smallest,
                scripts: document.scripts.length,
              };
            });
            if (m.overflow > 0 || m.outside.length || m.smallest < 12 || m.scripts)
              problems.push(`${id}: ${JSON.stringify(m)}`);
            const shot = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
            const d = compare(shot, join(REFS, `${id}-${width}.png`), `student-page-${id}-${width}`);
            if (d > MAX_DIFF) diffs.push(`${id}: ${d}`);
          }
          expect([problems, diffs, requests]).toEqual([[], [], []]);
        } finally {
          await page.close();
        }
      });
  },
);
