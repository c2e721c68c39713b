import type { identityBrandingV1 } from '@signet/proto';
import { getBrandLogo } from '../usecases/get-brand-logo.js';
import { getBranding } from '../usecases/get-branding.js';
import { setBranding, type SetBrandingDeps } from '../usecases/set-branding.js';
import { auditContextOf } from './audit-context.js';

export type BrandingHandlers = {
  getBranding(req: identityBrandingV1.GetBrandingRequest): Promise<identityBrandingV1.Branding>;
  setBranding(
    req: identityBrandingV1.SetBrandingRequest,
    call?: Parameters<typeof auditContextOf>[0],
  ): Promise<identityBrandingV1.Branding>;
  getBrandLogo(req: identityBrandingV1.GetBrandLogoRequest): Promise<identityBrandingV1.BrandLogo>;
};

/** `signet.identity.v1.BrandingService`: an organisation's branding and its logo by hash. */
export function brandingHandlers(
  deps: SetBrandingDeps & { branding: SetBrandingDeps['branding'] & Parameters<typeof getBrandLogo>[0]['branding'] },
): BrandingHandlers {
  return {
    getBranding: (req: identityBrandingV1.GetBrandingRequest) => getBranding(deps, req.orgId),
    setBranding: (req: identityBrandingV1.SetBrandingRequest, call) => setBranding(deps, req, auditContextOf(call).client),
    async getBrandLogo(req: identityBrandingV1.GetBrandLogoRequest): Promise<identityBrandingV1.BrandLogo> {
      return { png: await getBrandLogo(deps, req.sha256) };
    },
  };
}
