import type { Request } from 'express';

/** The client as the audit log records it: the address (X-Forwarded-For only from trusted proxies) and user agent. */
export const clientInfo = (req: Request) => ({ ip: req.ip ?? '', userAgent: (req.get('user-agent') ?? '').slice(0, 512) });

/**
 * gRPC call options for an audited identity call: the client and, when the request names only the
 * account, the member acting, as metadata identity reads (services/identity/src/grpc/audit-context.ts).
 * URI-encoded: metadata values are ASCII, a user agent need not be.
 */
export function auditCall(req: Request, actorId = '') {
  const c = clientInfo(req);
  return {
    metadata: {
      'x-signet-client-ip': encodeURIComponent(c.ip),
      'x-signet-client-ua': encodeURIComponent(c.userAgent),
      ...(actorId ? { 'x-signet-actor': actorId } : {}),
    },
  };
}
