import { apiKeyNotFound } from '../domain/errors.js';
import { orgOf } from '../domain/roles.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

/** Revokes a key of the member's organisation; another organisation's, unknown or already revoked key is not found. */
export async function revokeApiKey(
  deps: Pick<IdentityDeps, 'metrics'> & { users: Pick<UserRepository, 'byId'>; apiKeys: Pick<ApiKeyRepository, 'revokeInOrg'> },
  input: { userId: string; id: string },
): Promise<void> {
  const user = await getUser(deps, input.userId);
  if (!(await deps.apiKeys.revokeInOrg(orgOf(user), input.id))) throw apiKeyNotFound();
  deps.metrics.apiKeys.inc({ action: 'revoked' });
}
