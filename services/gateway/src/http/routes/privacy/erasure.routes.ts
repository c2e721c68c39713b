import { Router, type Request, type Response } from 'express';
import { errors, jwtVerify } from 'jose';
import { RpcError } from '@signet/kit';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError, httpAnswerOf } from '../../errors.js';
import { RATE_LIMITS, rateLimitCheck } from '../../rate-limit.js';

/** What a completion mail's erasure link carries (signed by the transaction service, HS256, services/transaction/src/mail/erasure-link.ts). */
export const ERASURE_TOKEN = { issuer: 'signet-transaction', audience: 'signet-erasure' } as const;

export type ErasureGrant = { reference: string; transactionId: number; signerIndex: number };

/**
 * The transaction and signer an erasure token names, or a refusal: 404 for anything this deployment
 * did not sign for this purpose (tampered, another key, a download token), 410 once it has expired
 * (by then the retention has erased the data anyway).
 */
export async function verifyErasureToken(secret: string, token: string): Promise<ErasureGrant> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      issuer: ERASURE_TOKEN.issuer,
      audience: ERASURE_TOKEN.audience,
      requiredClaims: ['sub', 'exp', 'tid', 'sig'],
    });
    const { sub, tid, sig } = payload as { sub?: unknown; tid?: unknown; sig?: unknown };
    if (typeof sub !== 'string' || !sub || !Number.isSafeInteger(tid) || !Number.isSafeInteger(sig))
      throw new HttpError(404, 'no such erasure link');
    return { reference: sub, transactionId: tid as number, signerIndex: sig as number };
  } catch (err) {
    if (err instanceof errors.JWTExpired)
      throw new HttpError(410, 'this erasure link has expired: the retention period has ended and the data is erased');
    if (err instanceof HttpError) throw err;
    throw new HttpError(404, 'no such erasure link');
  }
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: Response, status: number, title: string, body: string) {
  res.status(status);
  res.setHeader('Content-Security-Policy', "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  // The token is in the URL: never in a Referer, never cached.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title></head>
<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`);
}

/**
 * /privacy/erasure/{token}: a signer's request, through the link in their completion mail, to have
 * their biometric data (face and voice recordings, the reference photo) erased (issue 21). Opening
 * the link only shows what the button does — mail scanners open links, so GET changes nothing; the
 * button POSTs to the same address, and the transaction service records the request, mails the
 * sender and erases the data after the notice period (ERASURE_NOTICE_SECONDS). Answers are HTML
 * pages (the signer's browser), errors included, with the status of the refusal. Without
 * DOWNLOAD_LINK_SECRET (the secret the links are signed with) the route answers 404.
 */
export function erasureRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  const limit = rateLimitCheck(ctx, RATE_LIMITS.erasure_ip);
  const grant = async (req: Request): Promise<ErasureGrant> => {
    const secret = ctx.cfg.DOWNLOAD_LINK_SECRET;
    const token = String(req.params.token ?? '');
    if (!secret || token.length > 2048) throw new HttpError(404, 'no such erasure link');
    return verifyErasureToken(secret, token);
  };
  const refuse = (res: Response, err: unknown) => {
    const a =
      err instanceof HttpError
        ? { status: err.status, detail: err.detail, retryAfterSeconds: err.retryAfterSeconds }
        : err instanceof RpcError
          ? httpAnswerOf(err)
          : undefined;
    if (!a || (a.status >= 500 && a.status !== 503)) throw err;
    if (a.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(a.retryAfterSeconds))));
    page(res, a.status, 'Erasure request', `<p>${esc(a.detail)}</p>`);
  };

  router.get('/privacy/erasure/:token', async (req, res) => {
    try {
      await limit(req);
      const g = await grant(req);
      const action = `/privacy/erasure/${encodeURIComponent(String(req.params.token))}`;
      page(
        res,
        200,
        'Erase my biometric data',
        `<p>You signed the document with certificate <strong>${esc(g.reference)}</strong>. The service keeps the video of your face and voice from the signing, and your reference photo, for a limited time.</p>
<p>You can ask for them to be erased now. The sender is told at once, and the data is erased after a short notice period. The certificate, the signed PDF and its audit trail stay and keep verifying: they hold no biometric data.</p>
<form method="post" action="${esc(action)}"><button type="submit">Erase my biometric data</button></form>`,
      );
    } catch (err) {
      refuse(res, err);
    }
  });

  router.post('/privacy/erasure/:token', async (req, res) => {
    try {
      await limit(req);
      const g = await grant(req);
      const r = await ctx.transaction.requestSignerErasure({
        transactionId: g.transactionId,
        reference: g.reference,
        signerIndex: g.signerIndex,
      });
      const when = `${r.eraseAt.slice(0, 16).replace('T', ' ')} UTC`;
      page(
        res,
        r.erased ? 200 : 202,
        r.erased ? 'Already erased' : 'Erasure requested',
        r.erased
          ? `<p>The biometric data of certificate <strong>${esc(g.reference)}</strong> was erased on ${esc(when)}.</p>`
          : `<p>Your biometric data of certificate <strong>${esc(g.reference)}</strong> will be erased on <time datetime="${esc(r.eraseAt)}">${esc(when)}</time>. The sender has been told.</p>`,
      );
    } catch (err) {
      refuse(res, err);
    }
  });
  return { router };
}
