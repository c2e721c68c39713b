import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { apiKeyNotFound } from '../domain/errors.js';
import { orgOf } from '../domain/roles.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

/**
 * Revokes a key of the member's organisation; another organisation's, unknown or already revoked key
 * is not found. The audit entry (api_key.revoked: the key's name and prefix) is written with the revocation.
 */
export async function revokeApiKey(
  deps: Pick<IdentityDeps, 'metrics'> &
    Partial<Pick<IdentityDeps, 'onUserCreated'>> & {
      users: Pick<UserRepository, 'byId'>;
      apiKeys: Pick<ApiKeyRepository, 'revokeInOrg' | 'inOrg'>;
    },
  input: { userId: string; id: string; client?: ClientInfo },
): Promise<void> {
  const user = await getUser(deps, input.userId);
  const key = input.id ? await deps.apiKeys.inOrg(orgOf(user), input.id) : null;
  if (!key) throw apiKeyNotFound();
  const event = auditRecordedEvent({
    action: 'api_key.revoked',
    actor: user,
    client: input.client ?? NO_CLIENT,
    target: key._id,
    details: { name: key.name, prefix: key.prefix },
  });
  if (!(await deps.apiKeys.revokeInOrg(orgOf(user), key._id, [event]))) throw apiKeyNotFound();
  deps.metrics.apiKeys.inc({ action: 'revoked' });
  deps.onUserCreated?.();
}
