import type { ClientInfo } from '../domain/audit.js';
import { passkeyNotFound, userNotFound } from '../domain/errors.js';
import type { PasskeyRecord } from '../store/passkey.repository.js';
import { recordAudit } from './record-audit.js';
import type { SecurityDeps } from './security-deps.js';

export const listPasskeys = (deps: Pick<SecurityDeps, 'passkeys'>, userId: string): Promise<PasskeyRecord[]> =>
  deps.passkeys.ofUser(userId);

/** Removes one of the user's passkeys (NOT_FOUND for another user's): it signs nobody in afterwards. */
export async function removePasskey(deps: SecurityDeps, input: { userId: string; passkeyId: string; client: ClientInfo }) {
  const user = await deps.users.byId(input.userId);
  if (!user) throw userNotFound();
  const removed = input.passkeyId ? await deps.passkeys.remove(user._id, input.passkeyId) : null;
  if (!removed) throw passkeyNotFound();
  deps.securityMetrics.passkeys.inc({ action: 'remove', result: 'ok' });
  await recordAudit(deps, user, 'passkey.removed', input.client, { target: removed._id, details: { name: removed.name } });
}
