import { createOutboxRelay, type Bus, type Logger, type Metrics } from '@signet/kit';
import type { Connection } from 'mongoose';
import { brandingHandlers, type BrandingHandlers } from './grpc/branding.handler.js';
import { createBrandingRepository } from './store/branding.repository.js';
import type { UserRepository } from './store/user.repository.js';

/**
 * The BrandingService (issue 34 item 4) on identity's connections: its store (the `branding`
 * collection, one document per organisation) and the relay of its outbox (`identity.branding.changed`).
 */
export async function brandingServer(
  conn: Connection,
  bus: Bus,
  metrics: Metrics,
  logger: Logger,
  users?: Pick<UserRepository, 'byId'>,
): Promise<{ handlers: BrandingHandlers; stop: () => void }> {
  const branding = createBrandingRepository(conn);
  await branding.init();
  // Its own relay for its own collection; the lag of identity's consumers is sampled by the main one.
  const relay = createOutboxRelay(bus, [branding.model], { metrics, logger, lagOf: [] });
  const changes = metrics.counter('signet_identity_branding_changes_total', 'Branding changes, by part changed', ['part'], {
    part: ['display_name', 'color', 'reply_to', 'logo'],
  });
  const handlers = brandingHandlers({ branding, changes, logger, now: Date.now, kick: relay.kick, users });
  return { handlers, stop: () => relay.stop() };
}
