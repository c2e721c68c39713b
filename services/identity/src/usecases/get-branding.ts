import type { identityBrandingV1 } from '@signet/proto';
import type { BrandingRecord, BrandingRepository } from '../store/branding.repository.js';

/** The branding as the API gives it: empty fields when the organisation has none. */
export function brandingView(r: Omit<BrandingRecord, '_id'> | null): identityBrandingV1.Branding {
  return {
    displayName: r?.display_name ?? '',
    color: r?.color ?? '',
    replyTo: r?.reply_to ?? '',
    logoSha256: r?.logo_sha256 ?? '',
    logoWidth: r?.logo_width ?? 0,
    logoHeight: r?.logo_height ?? 0,
    updatedAt: r?.updated_at ? new Date(r.updated_at).toISOString() : '',
  };
}

/** An organisation's branding (issue 34 item 4). */
export async function getBranding(deps: { branding: Pick<BrandingRepository, 'get'> }, orgId: string) {
  return brandingView(orgId ? await deps.branding.get(orgId) : null);
}
