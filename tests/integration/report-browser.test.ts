// The HTML report in real headless Chromium (Debian's, driven by playwright-core):
// sort, filter, open a submission page, screenshot; no console error; hostile text stays inert.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const have = existsSync(CHROMIUM);
// In CI a missing browser is a failure, not a skip (.ci/run installs Debian's chromium).
const mustRun = process.env.CI === 'true';

const cli = (args: string[]) =>
  new Promise<number>((resolve) =>
    execFile(process.execPath, [join(ROOT, 'bin', 'evigrade.js'), ...args], (e) =>
      resolve(e ? ((e as { code?: number }).code ?? 1) : 0),
    ),
  );
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\u202Egnp.exe\u200B';

describe.skipIf(!have && !mustRun)(
  `HTML report in Chromium${have ? '' : ' (skipped: /usr/bin/chromium not installed; apt-get install chromium)'}`,
  () => {
    it('opens with no console errors, sorts, filters, shows a submission, and renders hostile text inert', async () => {
      expect(existsSync(CHROMIUM)).toBe(true);
      const dir = mkdtempSync(join(tmpdir(), 'evigrade-browser-'));
      const put = (id: string, body: string) => {
        mkdirSync(join(dir, 'subs', id), { recursive: true });
        writeFileSync(join(dir, 'subs', id, 'leap.js'), body);
      };
      put('alice', 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n');
      put('bob', 'export const isLeap = (y) => y % 4 === 0;\n');
      put('mallory', `export const isLeap = () => ${JSON.stringify(HOSTILE)};\n`);
      const out = join(dir, 'out');
      expect(
        await cli([
          'grade',
          join(dir, 'subs'),
          '--rubric',
          join(ROOT, 'rubrics', 'leap', 'rubric.yaml'),
          '--out',
          out,
          '--no-llm',
        ]),
      ).toBe(0);
      expect(await cli(['report', out])).toBe(0);

      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('request', (r) => {
          if (!r.url().startsWith('file:') && !r.url().startsWith('data:'))
            problems.push(`network request: ${r.url()}`);
        });
        await page.goto(pathToFileURL(join(out, 'report.html')).href);
        await page.waitForSelector('#submissions tr[data-id]');
        const ids = () =>
          page.$$eval('#submissions tbody tr[data-id]:not([hidden])', (rows) =>
            rows.map((r) => r.getAttribute('data-id')),
          );
        expect((await ids()).sort()).toEqual(['alice', 'bob', 'mallory']);

        await page.click('th[data-sort="final"] button');
        const asc = await ids();
        await page.click('th[data-sort="final"] button');
        expect(await ids()).toEqual([...asc].reverse());
        await page.fill('#filter', 'bo');
        expect(await ids()).toEqual(['bob']);
        await page.fill('#filter', '');

        await page.goto(`${pathToFileURL(join(out, 'report.html')).href}#/s/mallory`);
        await page.waitForSelector('section.submission[data-id="mallory"]:not([hidden])');
        const text = await page.textContent('section.submission[data-id="mallory"]');
        expect(text).toContain('<img src=x onerror=');
        expect(text).toContain('⟨U+202E⟩');
        expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
        expect(await page.$$eval('section.submission img, section.submission script', (els) => els.length)).toBe(0);
        mkdirSync(join(ROOT, 'test-results'), { recursive: true });
        await page.screenshot({ path: join(ROOT, 'test-results', 'report-submission.png'), fullPage: true });
        await page.goto(pathToFileURL(join(out, 'report.html')).href);
        await page.screenshot({ path: join(ROOT, 'test-results', 'report-overview.png'), fullPage: true });
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  },
);
