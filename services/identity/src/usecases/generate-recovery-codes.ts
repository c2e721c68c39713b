import { randomUUID } from 'node:crypto';
import type { ClientInfo } from '../domain/audit.js';
import { userNotFound } from '../domain/errors.js';
import { hashRecoverySecret, newRecoveryCodes } from '../domain/recovery-codes.js';
import { recordAudit } from './record-audit.js';
import type { SecurityDeps } from './security-deps.js';

/**
 * Ten new recovery codes for a signed-in user, returned once: only their argon2id hashes are kept,
 * and they replace every earlier code (used or not).
 */
export async function generateRecoveryCodes(
  deps: SecurityDeps,
  input: { userId: string; client: ClientInfo },
): Promise<string[]> {
  const user = await deps.users.byId(input.userId);
  if (!user) throw userNotFound();
  const codes = newRecoveryCodes();
  // One after another: ten parallel hashes would take ten times the memory at once.
  const hashed: { id: string; hash: string }[] = [];
  for (const c of codes) hashed.push({ id: c.id, hash: await hashRecoverySecret(c.secret) });
  await deps.recoveryCodes.replace(user._id, randomUUID(), hashed, new Date(deps.now()));
  deps.securityMetrics.recoveryCodes.inc({ action: 'generate', result: 'ok' });
  await recordAudit(deps, user, 'recovery_codes.generated', input.client, { details: { count: String(codes.length) } });
  return codes.map((c) => c.text);
}
