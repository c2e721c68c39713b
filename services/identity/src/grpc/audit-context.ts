import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';

/**
 * The gRPC metadata the gateway sends with a call whose action the audit log records: the client's
 * address and user agent (URI-encoded: metadata is ASCII) and the member acting, when the request
 * itself names only the account (settings, embed origins). Never a secret.
 */
export const AUDIT_METADATA = { ip: 'x-signet-client-ip', userAgent: 'x-signet-client-ua', actor: 'x-signet-actor' } as const;

type CallLike = { metadata?: { get(key: string): unknown[] } } | undefined;

const first = (call: CallLike, key: string): string => {
  const v = call?.metadata?.get(key)[0];
  return typeof v === 'string' ? v : '';
};

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The client and acting member a call's metadata names (empty when a caller sent none). */
export function auditContextOf(call: CallLike): { client: ClientInfo; actorId: string } {
  if (!call?.metadata) return { client: NO_CLIENT, actorId: '' };
  return {
    client: { ip: decoded(first(call, AUDIT_METADATA.ip)), userAgent: decoded(first(call, AUDIT_METADATA.userAgent)) },
    actorId: first(call, AUDIT_METADATA.actor),
  };
}
