// report.html in Debian's Chromium (driven by playwright-core) at 1400 and 800 px, on committed sample reports
// (tests/fixtures/report-page: the leap and bank-account samples as graded, source included): layout measured
// in the DOM, evidence links followed both ways, and each submission page compared with a reference screenshot.
//
// Screenshots: pixelmatch with threshold 0.1 (its per-pixel colour distance, 0–1; anti-aliased pixels are not
// counted), and at most MAX_DIFF (0.01%) of the pixels may differ; the sizes must match. Fonts are DejaVu (Debian's
// fonts-dejavu-core, first in the page's font stacks). A failing comparison writes the actual image and a diff
// to test-results/. Regenerate the references after a deliberate change of the page with `npm run screenshots`
// (UPDATE_SCREENSHOTS=1), and look at them before committing.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pixelmatch from 'pixelmatch';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { ROOT } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const have = existsSync(CHROMIUM);
const mustRun = process.env.CI === 'true';
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'report-page');
const REFS = join(FIXTURES, 'screenshots');
const OUT = join(ROOT, 'test-results');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
// Same machine, same packages: 0 differing pixels. Bold keywords alone differ in 0.02–0.13% of a shot: caught.
const MAX_DIFF = 0.0001;
const WIDTHS = [1400, 800] as const;
/** The pages compared pixel for pixel (down to the end of the source): inline evidence of every kind (JavaScript), and a Python file. */
const SHOTS: [batch: string, id: string][] = [
  ['leap', 'fake-pass-erin'],
  ['bank-account', 'partial-ben'],
];

const cli = (args: string[]) =>
  new Promise<number>((resolve) =>
    execFile(process.execPath, [join(ROOT, 'bin', 'evigrade.js'), ...args], (e) =>
      resolve(e ? ((e as { code?: number }).code ?? 1) : 0),
    ),
  );

/** Everything measured on one page, in the browser: see each field's comment. */
interface Layout {
  /** The document scrolls sideways (it must not: wide code scrolls inside its own box). */
  pageOverflow: number;
  /** Elements reaching past the viewport's right edge, outside a box that scrolls its code or message. */
  outside: string[];
  /** Boxes other than code and messages that need a horizontal scroll bar. */
  scrolling: string[];
  /** Words of ids, codes, rule names, locations and test names that the browser broke across lines. */
  brokenWords: string[];
}

async function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const W = document.documentElement.clientWidth;
    const visible = (e: Element) =>
      (e as HTMLElement).offsetParent !== null || getComputedStyle(e).position === 'fixed';
    const scroller = (e: Element) => e.matches('.src, pre');
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}: ${(e.textContent ?? '').slice(0, 40)}`;
    const outside: string[] = [];
    const scrolling: string[] = [];
    for (const e of Array.from(document.querySelectorAll('body *'))) {
      const box = e.closest('.src, pre');
      if (!visible(e) || (box && box !== e)) continue;
      if (e.getBoundingClientRect().right > W + 0.5) outside.push(name(e));
      const ox = getComputedStyle(e).overflowX;
      if (!scroller(e) && (ox === 'auto' || ox === 'scroll') && e.scrollWidth > e.clientWidth + 1)
        scrolling.push(name(e));
    }
    const brokenWords: string[] = [];
    const words =
      'code:not(.hash), a.ev, a.loc, .flag-code, .rule, .test-name, th, h3, dt, table:not(.files) td:first-child, .ln';
    for (const e of Array.from(document.querySelectorAll(words))) {
      if (!visible(e)) continue;
      const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const text = t.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(t, m.index ?? 0);
          r.setEnd(t, (m.index ?? 0) + m[0].length);
          const tops = new Set(
            Array.from(r.getClientRects())
              .filter((x) => x.width > 0)
              .map((x) => Math.round(x.top)),
          );
          if (tops.size > 1) brokenWords.push(`${m[0]} in ${name(e)}`);
        }
      }
    }
    return { pageOverflow: document.documentElement.scrollWidth - W, outside, scrolling, brokenWords };
  });
}

/** Every evidence link of the shown submission and where it leads; lines and rows that should link back and do not. */
async function links(page: Page) {
  return page.evaluate(() => {
    const sec = document.querySelector('section.submission:not([hidden])') as HTMLElement;
    const idx = sec.id; // s<i>
    const unresolved: string[] = [];
    for (const a of Array.from(sec.querySelectorAll('a[href^="#/s/"]'))) {
      const suffix = /^#\/s\/[^/]*\/([A-Za-z0-9]+)$/.exec(a.getAttribute('href') ?? '')?.[1];
      if (suffix && !a.classList.contains('missing') && !document.getElementById(`${idx}-${suffix}`))
        unresolved.push(a.getAttribute('href') ?? '');
    }
    // Each note on a line links to its evidence row; each such row (with a location) links back to that line.
    const noBackLink: string[] = [];
    for (const note of Array.from(sec.querySelectorAll('.src .note a.ev'))) {
      const eid = note.textContent ?? '';
      const line = (note.closest('.notes') as HTMLElement).previousElementSibling as HTMLElement;
      const row = document.getElementById(`${idx}-${eid}`);
      const back = row ? Array.from(row.querySelectorAll('a.loc')).map((a) => a.getAttribute('href') ?? '') : [];
      if (!back.some((h) => h.endsWith(`/${line.id.slice(idx.length + 1)}`))) noBackLink.push(`${eid} on ${line.id}`);
    }
    const severities = Array.from(sec.querySelectorAll('[data-part="flags"] tr[data-severity]')).map((r) =>
      r.getAttribute('data-severity'),
    );
    return {
      unresolved,
      noBackLink,
      notes: sec.querySelectorAll('.src .note').length,
      severities,
      text: sec.innerText,
    };
  });
}

function compare(actual: Buffer, ref: string, name: string): { diff: number; sizes: string } {
  if (UPDATE || !existsSync(ref)) {
    if (!UPDATE) throw new Error(`no reference screenshot ${ref}: run npm run screenshots`);
    writeFileSync(ref, actual);
  }
  const a = PNG.sync.read(actual);
  const b = PNG.sync.read(readFileSync(ref));
  const sizes = `${a.width}x${a.height} vs reference ${b.width}x${b.height}`;
  if (a.width !== b.width || a.height !== b.height) {
    writeFileSync(join(OUT, `${name}.actual.png`), actual);
    return { diff: 1, sizes };
  }
  const out = new PNG({ width: a.width, height: a.height });
  const n = pixelmatch(a.data, b.data, out.data, a.width, a.height, { threshold: 0.1 });
  if (n / (a.width * a.height) > MAX_DIFF) {
    writeFileSync(join(OUT, `${name}.actual.png`), actual);
    writeFileSync(join(OUT, `${name}.diff.png`), PNG.sync.write(out));
  }
  return { diff: n / (a.width * a.height), sizes };
}

describe.skipIf(!have && !mustRun)(
  `report.html layout in Chromium${have ? '' : ' (skipped: /usr/bin/chromium not installed)'}`,
  () => {
    let browser: Browser;
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-page-'));
    const batches = ['leap', 'bank-account'];
    const ids = (b: string) =>
      JSON.parse(readFileSync(join(FIXTURES, b, 'summary.json'), 'utf8')).submissions.map(
        (s: { id: string }) => s.id,
      ) as string[];

    beforeAll(async () => {
      mkdirSync(OUT, { recursive: true });
      for (const b of batches) {
        cpSync(join(FIXTURES, b), join(dir, b), { recursive: true });
        expect(await cli(['report', join(dir, b)])).toBe(0);
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--font-render-hinting=none',
          '--hide-scrollbars',
        ],
      });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('opens the overview with the students, shows judge statistics only when a judge ran, and says each sentence once on a page (issue 31)', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
      try {
        const url = pathToFileURL(join(dir, 'leap', 'report.html')).href;
        await page.goto(url);
        await page.waitForSelector('#overview table');
        const parts = await page.evaluate(() =>
          Array.from(document.querySelectorAll('#overview > *')).map(
            (e) => e.getAttribute('data-part') ?? e.tagName.toLowerCase(),
          ),
        );
        // Every sample was graded without a judge: the heading, then the students' table; no judge block.
        expect(parts.slice(0, 2)).toEqual(['h2', 'submissions']);
        expect(parts).not.toContain('judge-usage');
        // A student page: each sentence once.
        for (const id of ids('leap')) {
          await page.goto(`${url}#/s/${encodeURIComponent(id)}`);
          await page.waitForSelector(`section.submission[data-id="${id}"]:not([hidden])`);
          const r = JSON.parse(readFileSync(join(FIXTURES, 'leap', `${id}.json`), 'utf8')) as Report;
          const times = (why: string) =>
            page.evaluate(
              ([sid, w]) =>
                (document.querySelector(`section.submission[data-id="${sid}"]`) as HTMLElement).innerText.split(w)
                  .length - 1,
              [id, why] as const,
            );
          // The judge's skip reason and the quality reason, each built into the basis: shown once, not three times.
          const seen = {
            judge: await times(r.judge.reason),
            quality: await times(r.scores.quality?.reason ?? '\u0000'),
          };
          expect({ id, seen }).toEqual({ id, seen: { judge: 1, quality: r.scores.quality ? 1 : 0 } });
        }
      } finally {
        await page.close();
      }
    });

    it("prints the shown student's page alone: no navigation or overview, code wrapped instead of cut, nothing past the page", async () => {
      const page = await browser.newPage({ viewport: { width: 800, height: 900 }, deviceScaleFactor: 1 });
      try {
        await page.goto(`${pathToFileURL(join(dir, 'leap', 'report.html')).href}#/s/fake-pass-erin`);
        await page.waitForSelector('section.submission[data-id="fake-pass-erin"]:not([hidden])');
        await page.emulateMedia({ media: 'print' });
        const printed = await page.evaluate(() => {
          const shown = (sel: string) =>
            Array.from(document.querySelectorAll(sel)).filter((e) => (e as HTMLElement).offsetParent !== null).length;
          const src = document.querySelector('section.submission:not([hidden]) .src') as HTMLElement;
          return {
            sections: shown('section'),
            overview: shown('#overview'),
            buttons: shown('.no-print'),
            meta: shown('header .meta'),
            codeBoxScrolls: src.scrollWidth > src.clientWidth + 1,
            pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          };
        });
        expect(printed).toEqual({
          sections: 1,
          overview: 0,
          buttons: 0,
          meta: 0,
          codeBoxScrolls: false,
          pageOverflow: 0,
        });
        const pdf = await page.pdf({ format: 'A4' });
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      } finally {
        await page.close();
      }
    });

    for (const width of WIDTHS) {
      it(`at ${width} px: nothing wider than the window, no word broken, evidence linked both ways, flags by severity, no hidden test path`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        try {
          for (const b of batches) {
            const url = pathToFileURL(join(dir, b, 'report.html')).href;
            await page.goto(url);
            await page.waitForSelector('#submissions tr[data-id]');
            expect({ batch: b, ...(await measure(page)) }).toEqual({
              batch: b,
              pageOverflow: 0,
              outside: [],
              scrolling: [],
              brokenWords: [],
            });
            for (const id of ids(b)) {
              await page.goto(`${url}#/s/${encodeURIComponent(id)}`);
              await page.waitForSelector(`section.submission[data-id="${id}"]:not([hidden])`);
              expect({ id, ...(await measure(page)) }).toEqual({
                id,
                pageOverflow: 0,
                outside: [],
                scrolling: [],
                brokenWords: [],
              });
              const l = await links(page);
              expect({ id, unresolved: l.unresolved, noBackLink: l.noBackLink }).toEqual({
                id,
                unresolved: [],
                noBackLink: [],
              });
              const rank = l.severities.map((s) => ['critical', 'warning', 'info'].indexOf(s ?? ''));
              expect(rank).toEqual([...rank].sort((x, y) => x - y));
              expect(l.text).not.toMatch(/\/job\/|_test\.py:\d|\.spec\.js:\d|file:\/\//);
              if (id === 'fake-pass-erin') {
                expect(l.severities).toEqual(['critical', 'critical', 'warning', 'warning', 'warning']);
                expect(l.notes).toBeGreaterThan(5);
              }
              if (b === 'bank-account') expect(l.text).toContain('Policy findings: not measured');
              expect(l.text).not.toContain('Policy findings (0)\nNone.');
            }
          }
          expect(problems).toEqual([]);
        } finally {
          await page.close();
        }
      });

      it(`at ${width} px: each compared submission page matches its reference screenshot`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
        try {
          const results = [];
          for (const [b, id] of SHOTS) {
            await page.goto(`${pathToFileURL(join(dir, b, 'report.html')).href}#/s/${encodeURIComponent(id)}`);
            const sec = page.locator(`section.submission[data-id="${id}"]`);
            await sec.waitFor({ state: 'visible' });
            // From the page's top to the end of the source: summary, flags, scores and the code with its evidence.
            const clip = await sec.evaluate((e) => {
              const top = e.getBoundingClientRect().top + window.scrollY;
              const src = e.querySelector('[data-part="source"]') as HTMLElement;
              return {
                x: 0,
                y: Math.floor(top),
                width: document.documentElement.clientWidth,
                height: Math.ceil(src.getBoundingClientRect().bottom + window.scrollY - top),
              };
            });
            const shot = await page.screenshot({ clip, fullPage: true, animations: 'disabled', caret: 'hide' });
            const { diff, sizes } = compare(shot, join(REFS, `${id}-${width}.png`), `report-page-${id}-${width}`);
            results.push({ id, within: diff <= MAX_DIFF, sizes, diff: Math.round(diff * 1e5) / 1e5 });
          }
          expect(results.filter((r) => !r.within)).toEqual([]);
        } finally {
          await page.close();
        }
      });
    }
  },
);
