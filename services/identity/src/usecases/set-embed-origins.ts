import { checkEmbedOrigins, invalid } from '@signet/kit';
import { userNotFound } from '../domain/errors.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { auditActorOf, type AuditBy } from './audit-actor.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getProfile, type Profile } from './get-profile.js';

/**
 * Replaces the origins that may frame the account's signing pages (embedded signing, issue 34 item
 * 6): each exactly `scheme://host[:port]`, https except on loopback names, at most 10, duplicates
 * dropped (kit's checkEmbedOrigins; the gateway checks the same first). An empty list ends framing.
 * A change is counted (setting `embed_origins`), logged with the origins before and after, and
 * recorded in the audit log (embed_origins.changed) by an entry written in the same update.
 */
export async function setEmbedOrigins(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours' | 'biometricRetention' | 'lifecycle' | 'metrics' | 'logger'> &
    Partial<Pick<IdentityDeps, 'onUserCreated'>> & {
      users: Pick<UserRepository, 'byId' | 'setEmbedOrigins'>;
    },
  userId: string,
  requested: readonly string[],
  by: AuditBy = {},
): Promise<Profile> {
  const origins = checkEmbedOrigins(requested, (m) => invalid(m));
  const owner = userId ? await deps.users.byId(userId) : null;
  if (!owner) throw userNotFound();
  const was = owner.embed_origins ?? [];
  const { actor, client } = await auditActorOf(deps, owner, by);
  const audit =
    was.join(' ') === origins.join(' ')
      ? []
      : [
          auditRecordedEvent({
            action: 'embed_origins.changed',
            actor,
            client,
            target: owner._id,
            details: { origins: origins.join(' '), previous_origins: was.join(' ') },
          }),
        ];
  const before = await deps.users.setEmbedOrigins(userId, origins, audit);
  if (!before) throw userNotFound();
  if (audit.length) deps.onUserCreated?.();
  if (before.previous.join(' ') !== origins.join(' ')) {
    deps.metrics.settings.inc({ setting: 'embed_origins' });
    deps.logger.info({ userId, setting: 'embed_origins', from: before.previous, to: origins }, 'account setting changed');
  }
  return getProfile(deps, userId);
}
