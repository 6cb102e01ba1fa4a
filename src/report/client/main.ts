/** The report page's script, bundled by scripts/build-client.mjs into one IIFE that html.ts inlines. */
import { applyFilter, buildOverview } from './batch.js';
import { add, D } from './dom.js';
import { keyFor, page, route } from './state.js';
import { buildSubmission } from './submission.js';
import { arr, obj, str } from './util.js';

function boot(): void {
  const el = D.getElementById('data');
  try {
    page.data = obj(JSON.parse(el?.textContent ?? '{}'));
  } catch {
    page.data = {};
  }
  page.reports = arr(page.data.reports);
  page.reports.forEach((r, i) => page.keys.push(keyFor(str(obj(obj(r).submission).id), i)));
  const app = D.getElementById('app');
  if (!app) return;
  page.overview = buildOverview();
  add(app, page.overview);
  page.reports.forEach((r, i) => {
    const s = buildSubmission(r, i);
    page.sections.push(s);
    add(app, s);
  });
  applyFilter();
  window.addEventListener('hashchange', route);
  route();
}

boot();
