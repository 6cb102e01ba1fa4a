import { EvigradeError } from '../../domain/errors.js';

/** One student on a roster, under the id each LMS's download and import use. */
export interface RosterEntry {
  readonly userId: string;
  readonly name: string;
  /** Columns some imports carry along (Canvas SIS ids and section, Blackboard student id, e-mail). */
  readonly extra: Readonly<Record<string, string>>;
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF; a leading BOM dropped). */
export function parseCsv(textIn: string): string[][] {
  const t = textIn.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = (): void => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string;
    if (quoted) {
      if (c === '"' && t[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && t[i + 1] === '\n') i++;
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length) {
    endField();
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

// Header names as each system exports them (Canvas gradebook, Moodle worksheet, Blackboard grade centre,
// Gradescope roster), then the plain `id,name`. The first present wins.
const ID_COLUMNS = ['ID', 'Identifier', 'Username', 'SID', 'Email', 'Email address', 'id', 'user_id'];
const NAME_COLUMNS = ['Student', 'Full name', 'Name', 'name'];
const EXTRA_COLUMNS = [
  'SIS User ID',
  'SIS Login ID',
  'Section',
  'Student ID',
  'Email',
  'Email address',
  'First Name',
  'Last Name',
];

/** A roster from any of the systems' exports: ids as the downloads name students, names as people read them. */
export function parseRoster(csvText: string, where: string): RosterEntry[] {
  const [header, ...rows] = parseCsv(csvText);
  if (!header) throw new EvigradeError('USAGE', `${where}: the roster is empty`);
  const col = (names: readonly string[]): number =>
    names.map((n) => header.findIndex((h) => h.trim() === n)).find((i) => i >= 0) ?? -1;
  const idCol = col(ID_COLUMNS);
  if (idCol < 0)
    throw new EvigradeError(
      'USAGE',
      `${where}: no id column (looked for ${ID_COLUMNS.join(', ')}; found ${header.map((h) => JSON.stringify(h)).join(', ')})`,
    );
  const nameCol = col(NAME_COLUMNS);
  const first = col(['First Name']);
  const last = col(['Last Name']);
  const out: RosterEntry[] = [];
  for (const r of rows) {
    // Canvas and Moodle prefix ids: "Participant 123" in the worksheet; Canvas adds a "Points Possible" row with no id.
    const userId = (r[idCol] ?? '').trim().replace(/^Participant\s+/i, '');
    if (userId === '' || (r[0] ?? '').trim() === 'Points Possible') continue;
    const name = nameCol >= 0 ? (r[nameCol] ?? '').trim() : [r[first], r[last]].filter(Boolean).join(' ').trim();
    const extra = Object.fromEntries(
      [...EXTRA_COLUMNS, ...canvasIdentity(header)]
        .map((c) => [c, (r[header.indexOf(c)] ?? '').trim()])
        .filter(([, v]) => v !== ''),
    );
    out.push({ userId, name, extra });
  }
  return out;
}

/** Canvas's own identity columns, in its order, when no roster says otherwise. */
export const CANVAS_IDENTITY = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section'] as const;

/**
 * A Canvas gradebook export's identity columns exactly as it has them: its header begins `Student, ID` and its
 * identity columns end with `Section` (between them, whatever this Canvas adds: `Integration ID`, …). Empty for a
 * roster that is not a Canvas export.
 */
export function canvasIdentity(header: readonly string[]): string[] {
  const end = header.indexOf('Section');
  return header[0] === 'Student' && header[1] === 'ID' && end >= 2 ? header.slice(0, end + 1) : [];
}

/**
 * The roster's column for this assignment, exactly as read, matched the way Canvas matches an import's columns:
 * `Title (id)` first, then the exact title. Writing back `Word frequency` for a roster's `Word frequency (123)`
 * would make Canvas create a new assignment. Without a roster (or a match), the title itself.
 */
export function canvasGradeColumn(header: readonly string[], title: string): string {
  const withId = header.filter((h) => h.startsWith(`${title} (`) && /^\(\d+\)$/.test(h.slice(title.length + 1)));
  if (withId.length > 1)
    throw new EvigradeError(
      'USAGE',
      `the roster has ${withId.length} columns for "${title}" (${withId.join(', ')}): keep the one to import in the roster`,
    );
  return withId[0] ?? title;
}
