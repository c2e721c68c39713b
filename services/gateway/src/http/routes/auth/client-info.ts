import type { Request } from 'express';

/** The client as the audit log records it: the address (X-Forwarded-For only from trusted proxies) and user agent. */
export const clientInfo = (req: Request) => ({ ip: req.ip ?? '', userAgent: (req.get('user-agent') ?? '').slice(0, 512) });
