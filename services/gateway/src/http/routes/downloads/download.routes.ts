import { Router } from 'express';
import { errors, jwtVerify } from 'jose';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { errorAnswer, streamLedgerPdf } from '../transactions/signed-pdf.routes.js';

/** What a completion mail's download link carries (signed by the transaction service, HS256). */
export const DOWNLOAD_TOKEN = { issuer: 'signet-transaction', audience: 'signet-download' } as const;

/**
 * The certificate reference a download token grants, or a refusal: 404 for anything that is not a
 * token this deployment signed (tampered, another key, another audience), 401 for one that has expired.
 */
export async function verifyDownloadToken(secret: string, token: string): Promise<{ reference: string }> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      issuer: DOWNLOAD_TOKEN.issuer,
      audience: DOWNLOAD_TOKEN.audience,
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.sub !== 'string' || !payload.sub) throw new HttpError(404, 'no such download link');
    return { reference: payload.sub };
  } catch (err) {
    if (err instanceof errors.JWTExpired)
      throw new HttpError(401, 'this download link has expired; ask the sender of the document for the signed PDF');
    if (err instanceof HttpError) throw err;
    throw new HttpError(404, 'no such download link');
  }
}

/**
 * GET /api/downloads/{token}: the signed PDF for whoever holds a completion mail's link (a signer
 * needs no account). The token is a short JWT the transaction service signed with
 * DOWNLOAD_LINK_SECRET, naming the certificate reference and expiring after DOWNLOAD_LINK_TTL_SECONDS;
 * the gateway checks it with the same secret and streams the stored signed PDF (the same bytes the
 * owner downloads). Without the secret configured the route answers 404: download links are off.
 */
export function downloadRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  router.get('/api/downloads/:token', async (req, res) => {
    const secret = ctx.cfg.DOWNLOAD_LINK_SECRET;
    const token = String(req.params.token ?? '');
    if (!secret || token.length > 2048) throw new HttpError(404, 'no such download link');
    const { reference } = await verifyDownloadToken(secret, token);
    res.setHeader('Referrer-Policy', 'no-referrer');
    await streamLedgerPdf(ctx, res, { reference, auditTrail: false, notFound: 'no signed PDF for this download link' });
  });
  return {
    router,
    openapi: {
      '/api/downloads/{token}': {
        get: {
          operationId: 'downloadSignedPdf',
          tags: ['Transactions'],
          // The link's token is the credential: no account, no role.
          security: [],
          summary: "The signed PDF through a completion mail's download link (no account needed; the link expires)",
          parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'The signed PDF (the same bytes the owner downloads)',
              content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
            },
            '401': errorAnswer('The download link has expired'),
            '404': errorAnswer('No such download link, or no signed PDF for it'),
            '409': errorAnswer('Not sealed yet'),
          },
        },
      },
    },
  };
}
