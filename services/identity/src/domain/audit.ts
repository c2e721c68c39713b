/** Where a request came from (the gateway's view of the client); never a secret. */
export type ClientInfo = { ip: string; userAgent: string };
export const NO_CLIENT: ClientInfo = { ip: '', userAgent: '' };

/**
 * Every action the account audit log records (docs/account-audit-log.md lists them). The first seven
 * are appended directly; the account, key, member, settings and branding actions ride on the
 * action's own single-document write as an `identity.audit.recorded` outbox event;
 * transaction.deleted and transaction.biometrics_erased come from the transaction service's own
 * events; the RECORDABLE ones (exports) come from the gateway (RecordAuditEvent).
 */
export const AUDIT_ACTIONS = [
  'auth.login.succeeded',
  'auth.login.failed',
  'passkey.added',
  'passkey.removed',
  'passkey.renamed',
  'recovery_codes.generated',
  'recovery_code.used',
  'api_key.created',
  'api_key.revoked',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'settings.changed',
  'embed_origins.changed',
  'branding.changed',
  'transaction.deleted',
  'transaction.biometrics_erased',
  'audit_log.exported',
  'transactions.exported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What the gateway may record through RecordAuditEvent: exports (reads with no write to ride on). */
export const RECORDABLE: readonly AuditAction[] = ['audit_log.exported', 'transactions.exported'];

/** Who did it, from where: the acting member and the client of their request. */
export type AuditActor = { _id: string; email: string; org_id?: string | null };

/** One entry as a use case describes it, before it becomes an event or a record. */
export type AuditEntry = {
  action: AuditAction;
  actor: AuditActor;
  client: ClientInfo;
  target?: string;
  /** Names and outcomes only: never a password, code, token, key secret or document. */
  details?: Record<string, string>;
};

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
