import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import type { AccountBrandingRepository } from '../store/account-branding.repository.js';

export const ACCOUNT_BRANDING_DURABLE = 'transaction-account-branding';

/**
 * `identity.branding.changed`: keeps the organisation's branding for the mails to its signers
 * (mail/brand.ts), written before the ack; an older or redelivered event changes nothing.
 */
export function accountBrandingConsumer(deps: { brands: Pick<AccountBrandingRepository, 'set'> }) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const e = events.brandingChanged.message.decode(ev.data);
    if (!e.orgId) return;
    await deps.brands.set({
      _id: e.orgId,
      display_name: e.branding?.displayName ?? '',
      color: e.branding?.color ?? '',
      reply_to: e.branding?.replyTo ?? '',
      logo_sha256: e.branding?.logoSha256 ?? '',
      at: e.occurredAt ? new Date(e.occurredAt) : new Date(),
    });
  };
}
