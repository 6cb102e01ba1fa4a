import type { Report, Summary } from '../domain/report.js';
import { hiddenChars } from '../domain/text.js';
import { histogramSvg, overview } from './overview.js';
import { loadPageScript } from './page-script.js';
import { STYLE } from './style.js';

export interface HtmlOptions {
  readonly title: string;
  readonly generatedAt: string;
}

/** The page's policy: nothing may be fetched; only the page's own inline style and script run. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** Invisible and text-direction control characters, shown as visible ⟨U+XXXX⟩ markers. */
export const CONTROL_CHARS = hiddenChars();

export const markControls = (s: string): string =>
  s.replace(CONTROL_CHARS, (c) => `\u27E8U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}\u27E9`);

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const JSON_UNSAFE = new RegExp(`[<>&]|${CONTROL_CHARS.source}`, 'g');

/**
 * JSON safe inside <script type="application/json">: no '<' (so no '</script'
 * or '<!--'), '>' or '&' survive, nor U+2028/U+2029, nor any invisible or bidi
 * control (the page source shows no hidden text). JSON.parse gives the value back.
 */
export function embedJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The inline script: src/report/client bundled into one IIFE at build time. */
export const CLIENT_JS = loadPageScript();

/** What the page embeds as JSON; the script reads it back with JSON.parse. */
export interface PageData {
  readonly title: string;
  readonly generatedAt: string;
  readonly reports: readonly Report[];
  readonly summary: Summary | null;
  readonly overview: ReturnType<typeof overview>;
}

const UNSAFE_IN_SCRIPT_OR_STYLE = /<\/?(script|style)|<!--/i;

/**
 * One self-contained HTML page for a batch of reports: an overview with a
 * sortable, filterable table, and a section per submission (hash routes
 * `#/` and `#/s/<encodeURIComponent(id)>[/<evidence id>]`).
 *
 * Pure: no I/O, no clock. Report strings are never written as markup: they
 * travel as escaped JSON and the inline script turns them into text nodes.
 */
export function renderHtml(reports: Report[], summary: Summary | null, opts: HtmlOptions): string {
  if (UNSAFE_IN_SCRIPT_OR_STYLE.test(CLIENT_JS) || UNSAFE_IN_SCRIPT_OR_STYLE.test(STYLE)) {
    throw new Error('renderHtml: the inline script or style contains a tag-like sequence');
  }
  const ov = overview(reports);
  const data: PageData = {
    title: String(opts.title),
    generatedAt: String(opts.generatedAt),
    reports,
    summary,
    overview: ov,
  };
  const title = escapeHtml(markControls(String(opts.title)));
  const when = escapeHtml(markControls(String(opts.generatedAt)));
  return htmlPage({ csp: CSP, title, style: STYLE }, [
    `<header><h1 id="title">${title}</h1><p class="meta">Generated <time id="generated-at">${when}</time> \u00B7 ${ov.count} submission${ov.count === 1 ? '' : 's'} \u00B7 <a href="#/">Overview</a></p></header>`,
    '<main id="app">',
    '<noscript><p>This report needs JavaScript to display its data; the reports are embedded as JSON in this file (script#data).</p></noscript>',
    `<div id="histogram">${histogramSvg(ov.histogram)}</div>`,
    '</main>',
    `<script type="application/json" id="data">${embedJson(data)}</script>`,
    `<script>${CLIENT_JS}</script>`,
  ]);
}

/** The frame every page shares: UTF-8, its own CSP, no referrer, a phone's width; `title` already escaped. */
export function htmlPage(head: { csp: string; title: string; style: string }, body: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${head.csp}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${head.title}</title>`,
    `<style>${head.style}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
