import { notFound } from '@signet/kit';
import type { BrandingRepository } from '../store/branding.repository.js';

/** A logo by the SHA-256 of its re-encoded PNG; not found for anything else (the hash is the public address). */
export async function getBrandLogo(deps: { branding: Pick<BrandingRepository, 'logo'> }, sha256: string): Promise<Buffer> {
  const png = /^[0-9a-f]{64}$/.test(sha256) ? await deps.branding.logo(sha256) : null;
  if (!png) throw notFound('no such logo');
  return png;
}
