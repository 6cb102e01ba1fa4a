/** The page's state and its hash router: `#/` is the overview, `#/s/<key>[/<anchor>]` one submission. */
import { D } from './dom.js';
import { str, type Rec } from './util.js';

export const page = {
  data: {} as Rec,
  reports: [] as unknown[],
  keys: [] as string[],
  byKey: new Map<string, number>(),
  sections: [] as HTMLElement[],
  overview: null as HTMLElement | null,
  highlighted: null as Element | null,
  /** Parts built the first time their submission is shown (the source view: a batch of 2,000 must open fast). */
  deferred: new Map<number, () => void>(),
};

export const subHref = (i: number): string => `#/s/${page.keys[i] ?? ''}`;

/** A unique route key per report: its id URI-encoded, or `~<index>` when it has none or repeats. */
export function keyFor(id: string, i: number): string {
  let k: string;
  try {
    k = encodeURIComponent(id);
  } catch {
    k = '';
  }
  if (!k) k = `~${i}`;
  while (page.byKey.has(k)) k = `${k}~${i}`;
  page.byKey.set(k, i);
  return k;
}

function lookup(key: string): number {
  let k = key;
  if (page.byKey.has(k)) return page.byKey.get(k) as number;
  try {
    k = encodeURIComponent(decodeURIComponent(k));
  } catch {
    return -1;
  }
  return page.byKey.get(k) ?? -1;
}

export function route(): void {
  const m = /^#\/s\/([^/]*)(?:\/([A-Za-z0-9]{1,32}))?$/.exec(str(location.hash));
  const idx = m ? lookup(m[1] ?? '') : -1;
  if (page.overview) page.overview.hidden = idx >= 0;
  page.sections.forEach((s, j) => {
    s.hidden = j !== idx;
  });
  const build = page.deferred.get(idx);
  if (build) {
    page.deferred.delete(idx);
    build();
  }
  if (page.highlighted) {
    page.highlighted.classList.remove('hl');
    page.highlighted = null;
  }
  const t = idx >= 0 && m?.[2] ? D.getElementById(`s${idx}-${m[2]}`) : null;
  if (t) {
    t.classList.add('hl');
    page.highlighted = t;
    if (typeof t.scrollIntoView === 'function') t.scrollIntoView({ block: 'center' });
  } else if (typeof window.scrollTo === 'function') {
    window.scrollTo(0, 0);
  }
}
