import { apiKeyNotFound } from '../domain/errors.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { IdentityDeps } from './deps.js';

/** Revokes one of the user's own keys; another user's, unknown or already revoked key is not found. */
export async function revokeApiKey(
  deps: Pick<IdentityDeps, 'metrics'> & { apiKeys: Pick<ApiKeyRepository, 'revoke'> },
  input: { userId: string; id: string },
): Promise<void> {
  if (!(await deps.apiKeys.revoke(input.userId, input.id))) throw apiKeyNotFound();
  deps.metrics.apiKeys.inc({ action: 'revoked' });
}
