import type { ApiKeyRecord, ApiKeyRepository } from '../store/api-key.repository.js';

/** The user's keys that are not revoked, newest first. */
export function listApiKeys(deps: { apiKeys: Pick<ApiKeyRepository, 'listActive'> }, userId: string): Promise<ApiKeyRecord[]> {
  return deps.apiKeys.listActive(userId);
}
