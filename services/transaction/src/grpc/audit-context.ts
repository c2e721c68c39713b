import type { AuditBy } from '../domain/audit-by.js';

/**
 * The gateway's audit metadata on a call whose action the account audit log records (the same keys
 * identity reads, services/identity/src/grpc/audit-context.ts): the member acting and their client,
 * URI-encoded. Carried into the action's event for identity's identity-audit consumer; never a secret.
 */
type CallLike = { metadata?: { get(key: string): unknown[] } } | undefined;

const first = (call: CallLike, key: string): string => {
  const v = call?.metadata?.get(key)[0];
  if (typeof v !== 'string') return '';
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

export function auditByOf(call: CallLike): AuditBy {
  return {
    actorId: first(call, 'x-signet-actor'),
    ip: first(call, 'x-signet-client-ip').slice(0, 64),
    userAgent: first(call, 'x-signet-client-ua').slice(0, 512),
  };
}
