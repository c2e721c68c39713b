import type { AccountBrandingRepository } from '../store/account-branding.repository.js';
import type { MailBrand } from './layout.js';

/**
 * The branding of a transaction's organisation for its signers' mails (issue 34 item 4), as the
 * latest `identity.branding.changed` left it; none when it has none or it cannot be read now (a mail
 * is not held back for its branding). The logo is linked at the gateway's public URL.
 */
export async function brandOf(
  brands: Pick<AccountBrandingRepository, 'get'> | undefined,
  orgId: string,
  publicBaseUrl: string,
): Promise<MailBrand | undefined> {
  if (!brands || !orgId) return undefined;
  const b = await brands.get(orgId).catch(() => null);
  if (!b) return undefined;
  const base = publicBaseUrl.replace(/\/$/, '');
  return {
    ...(b.display_name ? { name: b.display_name } : {}),
    ...(b.color ? { color: b.color } : {}),
    ...(b.reply_to ? { replyTo: b.reply_to } : {}),
    ...(b.logo_sha256 ? { logoUrl: `${base}/api/branding/logos/${b.logo_sha256}` } : {}),
  };
}
