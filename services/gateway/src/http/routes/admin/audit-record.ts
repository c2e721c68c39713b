import type { Request, Response } from 'express';
import { callerOf } from '../../auth.js';
import type { GatewayContext } from '../../context.js';
import { clientInfo } from '../auth/client-info.js';

/** What the gateway records itself (identity's RECORDABLE): exports, reads with no write of their own to ride on. */
export type RecordedAction = 'audit_log.exported' | 'transactions.exported';

/**
 * Appends an entry to the caller's account audit log through identity (RecordAuditEvent): the member
 * (a session's or an API key's maker), the client, a target and non-secret details. Rejects when
 * identity does: an export records before its first byte and fails without it.
 */
export async function recordAudit(
  ctx: GatewayContext,
  req: Request,
  res: Response,
  action: RecordedAction,
  target = '',
  details: Record<string, string> = {},
): Promise<void> {
  await ctx.security.recordAuditEvent({ userId: callerOf(res).userId, action, target, details, client: clientInfo(req) });
}
