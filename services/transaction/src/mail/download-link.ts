import { SignJWT } from 'jose';

/** The download token's issuer and audience; the gateway checks both (routes/downloads/download.routes.ts). */
export const DOWNLOAD_TOKEN = { issuer: 'signet-transaction', audience: 'signet-download' } as const;

/**
 * A completion mail's download link: `<base>/api/downloads/<token>`, the token a JWT (HS256, signed
 * with DOWNLOAD_LINK_SECRET) naming the certificate reference (sub) and who it was mailed to (rcpt:
 * `sender`, `signer:<index>` or `viewer:<index>`), valid for `ttlSeconds`. No account is needed to use
 * it; whoever holds the link gets the signed PDF until it expires, as with a mailed attachment.
 */
export async function downloadLink(p: {
  baseUrl: string;
  secret: string;
  reference: string;
  transactionId: number;
  recipient: string;
  now: Date;
  ttlSeconds: number;
}): Promise<string> {
  const iat = Math.floor(p.now.getTime() / 1000);
  const token = await new SignJWT({ tid: p.transactionId, rcpt: p.recipient })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(DOWNLOAD_TOKEN.issuer)
    .setAudience(DOWNLOAD_TOKEN.audience)
    .setSubject(p.reference)
    .setIssuedAt(iat)
    .setExpirationTime(iat + p.ttlSeconds)
    .sign(new TextEncoder().encode(p.secret));
  return `${p.baseUrl.replace(/\/$/, '')}/api/downloads/${token}`;
}
