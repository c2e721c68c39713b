import { SignJWT } from 'jose';

/** The erasure token's issuer and audience; the gateway checks both (routes/privacy/erasure.routes.ts). */
export const ERASURE_TOKEN = { issuer: 'signet-transaction', audience: 'signet-erasure' } as const;

/**
 * A completion mail's erasure link for one signer: `<base>/privacy/erasure/<token>`, the token a JWT
 * (HS256, signed with the download links' secret but for its own audience, so neither token opens
 * the other route) naming the certificate reference (sub), the transaction (tid) and the signer's
 * index (sig). It lasts as long as there can be data to erase: until the retention ends, plus a day.
 * Opening the link changes nothing (mail scanners open links); the page's button makes the request.
 */
export async function erasureLink(p: {
  baseUrl: string;
  secret: string;
  reference: string;
  transactionId: number;
  signerIndex: number;
  now: Date;
  /** when the retention erases the data anyway */
  deleteAfter: Date;
}): Promise<string> {
  const iat = Math.floor(p.now.getTime() / 1000);
  const exp = Math.max(iat + 86_400, Math.floor(p.deleteAfter.getTime() / 1000) + 86_400);
  const token = await new SignJWT({ tid: p.transactionId, sig: p.signerIndex })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ERASURE_TOKEN.issuer)
    .setAudience(ERASURE_TOKEN.audience)
    .setSubject(p.reference)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(p.secret));
  return `${p.baseUrl.replace(/\/$/, '')}/privacy/erasure/${token}`;
}
