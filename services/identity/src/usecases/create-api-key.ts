import { invalid } from '@signet/kit';
import { API_KEY_MODES, newApiKey, type ApiKeyMode } from '../domain/secrets.js';
import { checkText } from '../domain/validate.js';
import type { ApiKeyRecord, ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

/** A new API key for the user: stored as prefix + SHA-256, the full key returned this once. */
export async function createApiKey(
  deps: Pick<IdentityDeps, 'metrics'> & { users: Pick<UserRepository, 'byId'>; apiKeys: Pick<ApiKeyRepository, 'create'> },
  input: { userId: string; name: string; mode?: string },
): Promise<{ key: ApiKeyRecord; secret: string }> {
  const name = checkText(input.name, 'name', 100);
  const mode = (input.mode || 'live') as ApiKeyMode;
  if (!API_KEY_MODES.includes(mode)) throw invalid('mode must be live or test');
  const user = await getUser(deps, input.userId);
  const k = newApiKey(mode);
  const rec = await deps.apiKeys.create(user._id, name, k.prefix, k.hash, mode);
  deps.metrics.apiKeys.inc({ action: 'created' });
  return { key: rec, secret: k.key };
}
