import { z } from 'zod';
import type { PaidTier } from './plans.js';

/**
 * The product catalogue: payment-provider product id → what it sells. A subscription product
 * names a tier (`{"plan":"pro"}` or `{"plan":"firm"}`); a pay-as-you-go credit pack names how many
 * signature credits one unit buys (`{"credits":10}`).
 */
export const catalogSchema = z.record(
  z.string().min(1),
  z.union([
    z.object({ plan: z.enum(['pro', 'firm']) }).strict(),
    z.object({ credits: z.number().int().positive().max(100_000) }).strict(),
  ]),
);
export type ProductCatalog = z.infer<typeof catalogSchema>;

export function parseCatalog(json: string): ProductCatalog {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('PRODUCT_CATALOG is not valid JSON');
  }
  return catalogSchema.parse(raw);
}

export function tierOfProduct(catalog: ProductCatalog, productId: string | null | undefined): PaidTier | null {
  if (!productId) return null;
  const p = catalog[productId];
  if (!p || !('plan' in p)) return null;
  return p.plan === 'pro' ? 'Pro' : 'Firm';
}

export function creditsOfProduct(catalog: ProductCatalog, productId: string): number {
  const p = catalog[productId];
  return p && 'credits' in p ? p.credits : 0;
}
