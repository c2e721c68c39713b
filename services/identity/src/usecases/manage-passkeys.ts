import type { ClientInfo } from '../domain/audit.js';
import { passkeyNotFound, userNotFound } from '../domain/errors.js';
import { checkText } from '../domain/validate.js';
import type { PasskeyRecord } from '../store/passkey.repository.js';
import { recordAudit } from './record-audit.js';
import type { SecurityDeps } from './security-deps.js';
import { PASSKEY_NAME_MAX } from './passkey-registration.js';

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

/** A new name for one of the user's passkeys (NOT_FOUND for another user's); the old and new name are audited. */
export async function renamePasskey(
  deps: SecurityDeps,
  input: { userId: string; passkeyId: string; name: string; client: ClientInfo },
): Promise<PasskeyRecord> {
  const name = checkText(input.name, 'name', PASSKEY_NAME_MAX);
  const user = await deps.users.byId(input.userId);
  if (!user) throw userNotFound();
  const before = input.passkeyId ? await deps.passkeys.rename(user._id, input.passkeyId, name) : null;
  if (!before) throw passkeyNotFound();
  deps.securityMetrics.passkeys.inc({ action: 'rename', result: 'ok' });
  if (before.name !== name)
    await recordAudit(deps, user, 'passkey.renamed', input.client, {
      target: before._id,
      details: { name, previous_name: before.name },
    });
  return { ...before, name };
}
