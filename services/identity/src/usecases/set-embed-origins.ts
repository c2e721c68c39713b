import { checkEmbedOrigins, invalid } from '@signet/kit';
import { userNotFound } from '../domain/errors.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getProfile, type Profile } from './get-profile.js';

/**
 * Replaces the origins that may frame the account's signing pages (embedded signing, issue 34 item
 * 6): each exactly `scheme://host[:port]`, https except on loopback names, at most 10, duplicates
 * dropped (kit's checkEmbedOrigins; the gateway checks the same first). An empty list ends framing.
 * A change is counted (setting `embed_origins`) and logged with the number of origins before and after.
 */
export async function setEmbedOrigins(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours' | 'biometricRetention' | 'lifecycle' | 'metrics' | 'logger'> & {
    users: Pick<UserRepository, 'byId' | 'setEmbedOrigins'>;
  },
  userId: string,
  requested: readonly string[],
): Promise<Profile> {
  const origins = checkEmbedOrigins(requested, (m) => invalid(m));
  if (!userId) throw userNotFound();
  const before = await deps.users.setEmbedOrigins(userId, origins);
  if (!before) throw userNotFound();
  if (before.previous.join(' ') !== origins.join(' ')) {
    deps.metrics.settings.inc({ setting: 'embed_origins' });
    deps.logger.info({ userId, setting: 'embed_origins', from: before.previous, to: origins }, 'account setting changed');
  }
  return getProfile(deps, userId);
}
