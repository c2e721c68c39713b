import { orgOf } from '../domain/roles.js';
import type { ApiKeyRecord, ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import { getUser } from './get-user.js';

/** The organisation's keys that are not revoked, newest first (expired ones too, marked by their expiry). */
export async function listApiKeys(
  deps: { users: Pick<UserRepository, 'byId'>; apiKeys: Pick<ApiKeyRepository, 'listOfOrg'> },
  userId: string,
): Promise<ApiKeyRecord[]> {
  return deps.apiKeys.listOfOrg(orgOf(await getUser(deps, userId)));
}
