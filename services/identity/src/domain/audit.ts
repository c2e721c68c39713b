/** Where a request came from (the gateway's view of the client); never a secret. */
export type ClientInfo = { ip: string; userAgent: string };
export const NO_CLIENT: ClientInfo = { ip: '', userAgent: '' };

/** The audit log's actions written by identity (others arrive from events). */
export type AuditAction =
  | 'auth.login.succeeded'
  | 'auth.login.failed'
  | 'passkey.added'
  | 'passkey.removed'
  | 'recovery_codes.generated'
  | 'recovery_code.used';

/** How long entries are kept by default (AUDIT_RETENTION_DAYS): a little over a year, so a yearly review sees a whole year. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 400;

/** A user agent is the client's claim: kept, cut to a length a log line can hold. */
export const clip = (s: string | undefined, max = 512) => (s ?? '').slice(0, max);

/** Page cursor: the last entry's time and id, opaque to clients. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.getTime(), id])).toString('base64url');
}
export function decodeCursor(cursor: string): { at: Date; id: string } | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || typeof v[0] !== 'number' || typeof v[1] !== 'string') return null;
    return { at: new Date(v[0]), id: v[1] };
  } catch {
    return null;
  }
}
