import { createHash } from 'node:crypto';
import { badRequest } from '../../errors.js';

/** The rows of a bulk upload as the transaction service takes them: signers by role, values by field id, photos once each. */
export type BulkSigner = { role: string; name: string; email: string; photo: number };
export type BulkRow = { signers: BulkSigner[]; values: Record<string, string> };
export type BulkInput = { rows: BulkRow[]; photos: Buffer[] };

export const MAX_ROWS = 1000;
const ROLE_COLUMN = /^(.+)_(name|email|photo)$/;
const VALUE_COLUMN = /^value_(.+)$/;

/**
 * RFC 4180 CSV: fields separated by commas, optionally quoted (a quote inside doubled), lines ended by
 * CRLF or LF; a UTF-8 byte order mark is dropped. Returns the records, blank lines left out.
 */
export function parseCsv(text: string): string[][] {
  const s = text.replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let rec: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  const endRecord = () => {
    rec.push(cell);
    if (rec.length > 1 || rec[0] !== '') records.push(rec);
    rec = [];
    cell = '';
  };
  while (i < s.length) {
    const c = s[i]!;
    i++;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (s[i] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      rec.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i] === '\n') i++;
      endRecord();
    } else cell += c;
  }
  if (quoted) throw badRequest('CSV: a quoted field is not closed');
  if (cell !== '' || rec.length) endRecord();
  return records;
}

/** Photos given once each (by content), rows refer to them by position. */
function photoBook() {
  const photos: Buffer[] = [];
  const byHash = new Map<string, number>();
  return {
    photos,
    add(base64: string, where: string): number {
      const text = base64.trim().replace(/^data:image\/(?:jpeg|png);base64,/, '');
      if (!text) return -1;
      if (!/^[A-Za-z0-9+/=\s]+$/.test(text)) throw badRequest(`${where}: must be a base64 JPEG or PNG image`);
      const buf = Buffer.from(text, 'base64');
      const h = createHash('sha256').update(buf).digest('hex');
      let i = byHash.get(h);
      if (i === undefined) byHash.set(h, (i = photos.push(buf) - 1));
      return i;
    },
  };
}

/**
 * A CSV upload: a header, then one row per transaction. Each role of the template has the columns
 * `<role>_name` and `<role>_email` (and `<role>_photo`, a base64 JPEG or PNG, for a face-match role);
 * each prefilled value the column `value_<field id>`. A column of another form, a role with only one
 * of its name and e-mail columns, or a row longer than the header is a 400 (nothing is stored).
 */
export function csvRows(text: string): BulkInput {
  const [header, ...records] = parseCsv(text);
  if (!header) throw badRequest('CSV: the header line is missing');
  const cols = header.map((h) => h.trim());
  const roles = new Map<string, Partial<Record<'name' | 'email' | 'photo', number>>>();
  const values = new Map<string, number>();
  const twice = cols.find((c, i) => cols.indexOf(c) !== i);
  if (twice !== undefined) throw badRequest(`CSV: column "${twice.slice(0, 64)}" appears twice`);
  cols.forEach((c, i) => {
    const v = VALUE_COLUMN.exec(c);
    const r = ROLE_COLUMN.exec(c);
    if (v) values.set(v[1]!, i);
    else if (r) roles.set(r[1]!, { ...roles.get(r[1]!), [r[2]!]: i });
    else
      throw badRequest(`CSV: column "${c.slice(0, 64)}" is neither <role>_name, <role>_email, <role>_photo nor value_<field id>`);
  });
  if (!roles.size) throw badRequest('CSV: missing columns: each role needs <role>_name and <role>_email');
  for (const [role, at] of roles) {
    if (at.name === undefined) throw badRequest(`CSV: missing column ${role}_name`);
    if (at.email === undefined) throw badRequest(`CSV: missing column ${role}_email`);
  }
  if (records.length > MAX_ROWS) throw badRequest(`rows: at most ${MAX_ROWS} rows`);
  const book = photoBook();
  const rows = records.map((rec, n): BulkRow => {
    if (rec.length > cols.length) throw badRequest(`CSV line ${n + 2}: ${rec.length} fields, the header has ${cols.length}`);
    const cell = (i: number | undefined) => (i === undefined ? '' : (rec[i] ?? ''));
    return {
      signers: [...roles].map(([role, at]) => ({
        role,
        name: cell(at.name),
        email: cell(at.email),
        photo: book.add(cell(at.photo), `CSV line ${n + 2}: ${role}_photo`),
      })),
      values: Object.fromEntries([...values].map(([id, i]) => [id, cell(i)])),
    };
  });
  return { rows, photos: book.photos };
}

type JsonRows = {
  rows: {
    signers: Record<string, { name: string; email: string; photo?: string | undefined }>;
    values?: Record<string, string | boolean> | undefined;
  }[];
};

/** A JSON upload (already checked by its schema): signers by role, each with an optional base64 photo. */
export function jsonRows(body: JsonRows): BulkInput {
  const book = photoBook();
  const rows = body.rows.map((r, n) => ({
    signers: Object.entries(r.signers).map(([role, s]) => ({
      role,
      name: s.name,
      email: s.email,
      photo: s.photo ? book.add(s.photo, `rows[${n}].signers.${role}.photo`) : -1,
    })),
    values: Object.fromEntries(Object.entries(r.values ?? {}).map(([k, v]) => [k, String(v)])),
  }));
  return { rows, photos: book.photos };
}
