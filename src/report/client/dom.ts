/**
 * The only way report data reaches the DOM. Every string from a report is student-controlled: it becomes
 * text nodes through put() (invisible and bidi controls shown as visible ⟨U+XXXX⟩ markers) or a `data-*`
 * attribute. Links are '#' fragments the page builds; element ids come from indexes and checked evidence
 * ids. No markup is ever parsed from data (no innerHTML, no eval).
 */
import { HIDDEN_CHARS_SOURCE } from '../../domain/text.js';
import { hex, str } from './util.js';

export const D = document;
const CTL = new RegExp(HIDDEN_CHARS_SOURCE, 'g');

export type Cell = Node | string;

export function put<E extends Node>(e: E, v: unknown): E {
  const s = str(v);
  let last = 0;
  let m: RegExpExecArray | null;
  CTL.lastIndex = 0;
  while ((m = CTL.exec(s)) !== null) {
    if (m.index > last) e.appendChild(D.createTextNode(s.slice(last, m.index)));
    const sp = D.createElement('span');
    sp.setAttribute('class', 'ctl');
    sp.setAttribute('title', 'invisible or text-direction control character');
    sp.textContent = `\u27E8U+${hex(m[0])}\u27E9`;
    e.appendChild(sp);
    last = m.index + m[0].length;
  }
  if (last < s.length) e.appendChild(D.createTextNode(s.slice(last)));
  return e;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string | null,
  text?: unknown,
): HTMLElementTagNameMap[K] {
  const e = D.createElement(tag);
  if (cls) e.setAttribute('class', cls);
  if (text !== undefined) put(e, text);
  return e;
}

export function add<P extends Node>(p: P, ...children: (Node | null | undefined | false)[]): P {
  for (const c of children) if (c) p.appendChild(c);
  return p;
}

const isNode = (v: unknown): v is Node =>
  v !== null && typeof v === 'object' && typeof (v as Node).appendChild === 'function';

export function link(href: string, text: unknown, cls?: string | null): HTMLAnchorElement {
  const a = h('a', cls, text);
  a.setAttribute('href', href);
  return a;
}

export function part(name: string, title: string): HTMLDivElement {
  const d = h('div', 'part');
  d.setAttribute('data-part', name);
  return add(d, h('h3', null, title));
}

export const cell = (tag: 'td' | 'dd', c: Cell): HTMLElement => (isNode(c) ? add(h(tag), c) : h(tag, null, c));

export function row(cells: readonly Cell[]): HTMLTableRowElement {
  const tr = h('tr');
  for (const c of cells) add(tr, cell('td', c));
  return tr;
}

export function table(
  cls: string,
  heads: readonly string[],
  rows: readonly (readonly Cell[])[],
): { t: HTMLTableElement; body: HTMLTableSectionElement } {
  const t = h('table', cls);
  const tr = h('tr');
  const body = h('tbody');
  for (const x of heads) add(tr, h('th', null, x));
  add(t, add(h('thead'), tr), body);
  for (const cells of rows) add(body, row(cells));
  return { t, body };
}

export type Pair = readonly [label: string, value: Cell, field?: string];

export function kv(pairs: readonly Pair[], attr?: string): HTMLDListElement {
  const dl = h('dl', 'kv');
  for (const [label, value, field] of pairs) {
    const dd = cell('dd', value);
    if (attr && field) dd.setAttribute(attr, field);
    add(dl, h('dt', null, label), dd);
  }
  return dl;
}
