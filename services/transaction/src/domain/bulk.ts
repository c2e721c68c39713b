import { createHash, randomBytes } from 'node:crypto';
import { isEmail } from './creation.js';
import { fieldInvalid } from './errors.js';

/**
 * Bulk send (issue 33 item 4): one job of rows against a template; each row maps the template's
 * roles to signers and may prefill values, and becomes one transaction through the one creation use
 * case. Pure: the job's checks, its keys and its counts.
 */
export const MAX_BULK_ROWS = 1000;
/** Distinct face photos one job may carry (each at most MAX_REFERENCE_BYTES; the request is bounded by the gateway too). */
export const MAX_BULK_PHOTOS = 1000;

export const ROW_STATUSES = ['pending', 'created', 'failed', 'not_sent'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** One signer of a row: the role it takes, who, and the position of its face photo among the job's (-1: none). */
export type BulkSignerInput = { role: string; name: string; email: string; photo: number };
export type BulkRowInput = { signers: BulkSignerInput[]; values: Record<string, string> };

/** What the checks need of the template. */
export type BulkTemplateShape = {
  roles: { name: string; verification: string }[];
  fields: { id: string; type?: unknown }[];
};

// Control characters (C0 and DEL) have no place in names shown in emails and certificates.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Checks a job as a whole: 1 to 1,000 rows; every signer names one of the template's roles, once per
 * row; every value names one of its fields; every photo reference exists. A failure here is a 400 for
 * the whole job (nothing stored): the request does not fit the template.
 */
export function checkBulkShape(rows: BulkRowInput[], tpl: BulkTemplateShape, photoCount: number): void {
  if (!rows.length) throw fieldInvalid('rows', 'at least one row is needed');
  if (rows.length > MAX_BULK_ROWS) throw fieldInvalid('rows', `at most ${MAX_BULK_ROWS} rows`);
  if (photoCount > MAX_BULK_PHOTOS) throw fieldInvalid('photos', `at most ${MAX_BULK_PHOTOS} distinct photos`);
  const roles = new Set(tpl.roles.map((r) => r.name));
  const fields = new Set(tpl.fields.map((f) => f.id));
  rows.forEach((row, i) => {
    const seen = new Set<string>();
    for (const s of row.signers) {
      if (!roles.has(s.role))
        throw fieldInvalid(`rows[${i}]`, `"${s.role.slice(0, 64)}" is not a role of the template (${[...roles].join(', ')})`);
      if (seen.has(s.role)) throw fieldInvalid(`rows[${i}]`, `role "${s.role}" is given twice`);
      seen.add(s.role);
      if (s.photo < -1 || s.photo >= photoCount) throw fieldInvalid(`rows[${i}]`, `photo ${s.photo} does not exist`);
    }
    for (const id of Object.keys(row.values))
      if (!fields.has(id)) throw fieldInvalid(`rows[${i}]`, `"${id.slice(0, 64)}" is not a field of the template`);
  });
  for (const role of roles)
    if (!rows.some((r) => r.signers.some((s) => s.role === role)))
      throw fieldInvalid(
        'rows',
        `no row names a signer for the role "${role}" (CSV: missing columns ${role}_name and ${role}_email)`,
      );
}

/**
 * The row's own problem, if any, reported on the row while the other rows are still sent: a role
 * without a signer, a name missing or too long, an e-mail that is not one, two roles with one e-mail,
 * a face-match role without a photo (or a liveness-only one with one). Null: the row may be created
 * (the creation checks it once more and may still refuse it, e.g. a prefilled value).
 */
export function rowProblem(row: BulkRowInput, tpl: BulkTemplateShape): string | null {
  const emails = new Set<string>();
  for (const role of tpl.roles) {
    const s = row.signers.find((x) => x.role === role.name);
    if (!s) return `${role.name}: no signer for this role`;
    const name = s.name.trim();
    if (!name) return `${role.name}_name: is required`;
    if (name.length > 200) return `${role.name}_name: must be at most 200 characters`;
    if (CONTROL.test(name)) return `${role.name}_name: must not contain control characters`;
    const email = s.email.trim();
    if (!email) return `${role.name}_email: is required`;
    if (!isEmail(email)) return `${role.name}_email: "${email.slice(0, 100)}" is not an email address`;
    if (emails.has(email.toLowerCase())) return `${role.name}_email: each signer must have a different email address`;
    emails.add(email.toLowerCase());
    const faceMatch = role.verification !== 'liveness_only';
    if (faceMatch && s.photo < 0) return `${role.name}_photo: the role is verified against a face photo; give one`;
    if (!faceMatch && s.photo >= 0) return `${role.name}_photo: the role is verified by liveness only and takes no photo`;
  }
  return null;
}

/** A new job id: `bj_`, the time (base 36) and 12 random characters. */
export function newBulkJobId(now: Date): string {
  const rand = [...randomBytes(12)].map((b) => (b % 36).toString(36)).join('');
  return `bj_${now.getTime().toString(36).padStart(9, '0')}${rand}`;
}

/** The row's creation Idempotency-Key: a resumed or retried row finds its first creation under it. */
export const rowIdempotencyKey = (jobId: string, row: number) => `bulk:${jobId}:${row}`;
/**
 * The row's billing consumption id: the same while the row is resumed (a crash after the consumption
 * does not consume again), a new one per `attempt` (a consumption refunded after a failure cannot be
 * reused).
 */
export const rowConsumptionId = (jobId: string, row: number, attempt: number) => `bulk:${jobId}:${row}:${attempt}`;

/** What a job's request is, for a retried upload under the same Idempotency-Key: same template, rows and photos. */
export function bulkFingerprint(templateId: string, rows: BulkRowInput[], photoHashes: string[]): string {
  const canon = rows.map((r) => ({
    s: r.signers.map((s) => [s.role, s.name, s.email, s.photo >= 0 ? photoHashes[s.photo] : '']),
    v: Object.entries(r.values).sort(([a], [b]) => (a < b ? -1 : 1)),
  }));
  return createHash('sha256')
    .update(JSON.stringify([templateId, canon]))
    .digest('hex');
}

export type BulkCounts = { rows: number } & Record<RowStatus, number>;
export const emptyCounts = (rows: number): BulkCounts => ({ rows, pending: 0, created: 0, failed: 0, not_sent: 0 });

/** The job is over when no row is left pending. */
export const isFinished = (c: BulkCounts) => c.pending === 0;

/** A checkbox value as text ("true"/"false") back to its boolean; anything else stays text. */
export function prefillValue(type: unknown, v: string): string | boolean {
  if (type === 'checkbox') {
    const t = v.trim().toLowerCase();
    if (['true', 'yes', '1', 'x'].includes(t)) return true;
    if (['false', 'no', '0', ''].includes(t)) return false;
  }
  return v;
}

/** The id of a job sent with an Idempotency-Key: the same for every retry of that upload (owner, mode and key). */
export function keyedBulkJobId(ownerId: string, test: boolean, key: string): string {
  const h = createHash('sha256')
    .update(`${ownerId}\n${test ? 'test' : 'live'}\n${key}`)
    .digest('hex');
  return `bj_k${h.slice(0, 24)}`;
}
