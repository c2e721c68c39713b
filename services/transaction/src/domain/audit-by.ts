/**
 * Who asked for an action the account audit log records, as the gateway passed it (grpc/audit-context.ts):
 * the member and their client. Carried into the action's event for identity's identity-audit consumer.
 */
export type AuditBy = { actorId: string; ip: string; userAgent: string };
