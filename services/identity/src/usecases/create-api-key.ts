import { invalid } from '@signet/kit';
import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { API_KEY_MODES, newApiKey, type ApiKeyMode } from '../domain/secrets.js';
import { checkScopes, orgOf, roleOf } from '../domain/roles.js';
import { checkText } from '../domain/validate.js';
import type { ApiKeyRecord, ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

/** The longest a key may live when it has an expiry: about ten years. */
const MAX_KEY_LIFE_MS = 3660 * 86_400_000;

/** An optional expiry: ISO 8601, in the future, at most ten years ahead. */
export function checkKeyExpiry(raw: string | undefined, nowMs: number): Date | null {
  if (!raw) return null;
  const at = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(at.getTime())) throw invalid('expires_at must be an ISO 8601 date-time');
  if (at.getTime() <= nowMs) throw invalid('expires_at must be in the future');
  if (at.getTime() > nowMs + MAX_KEY_LIFE_MS) throw invalid('expires_at must be within ten years');
  return at;
}

/**
 * A new API key of the member, for their organisation: stored as prefix + SHA-256, the full key
 * returned this once. Its scopes never exceed the member's role; it may expire. The audit entry
 * (api_key.created: name, prefix, mode, scopes, expiry; never the key) is written with it.
 */
export async function createApiKey(
  deps: Pick<IdentityDeps, 'metrics' | 'now'> &
    Partial<Pick<IdentityDeps, 'onUserCreated'>> & {
      users: Pick<UserRepository, 'byId'>;
      apiKeys: Pick<ApiKeyRepository, 'create'>;
    },
  input: { userId: string; name: string; mode?: string; scopes?: string[]; expiresAt?: string; client?: ClientInfo },
): Promise<{ key: ApiKeyRecord; secret: string }> {
  const name = checkText(input.name, 'name', 100);
  const mode = (input.mode || 'live') as ApiKeyMode;
  if (!API_KEY_MODES.includes(mode)) throw invalid('mode must be live or test');
  const expiresAt = checkKeyExpiry(input.expiresAt, deps.now());
  const user = await getUser(deps, input.userId);
  const scopes = checkScopes(input.scopes ?? [], roleOf(user));
  const k = newApiKey(mode);
  const audit = (key: ApiKeyRecord) => [
    auditRecordedEvent({
      action: 'api_key.created',
      actor: user,
      client: input.client ?? NO_CLIENT,
      target: key._id,
      details: {
        name,
        prefix: key.prefix,
        mode,
        scopes: scopes.join(' '),
        expires_at: expiresAt ? expiresAt.toISOString() : '',
      },
    }),
  ];
  const rec = await deps.apiKeys.create(user._id, name, k.prefix, k.hash, mode, { orgId: orgOf(user), scopes, expiresAt }, audit);
  deps.metrics.apiKeys.inc({ action: 'created' });
  deps.onUserCreated?.();
  return { key: rec, secret: k.key };
}
