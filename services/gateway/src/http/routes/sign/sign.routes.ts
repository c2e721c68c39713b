import express, { Router, type Response } from 'express';
import { status } from '@grpc/grpc-js';
import { z } from 'zod';
import { RpcError } from '@signet/kit';
import { transactionV1 } from '@signet/proto';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { bridgeUpload } from '../../upload/upload-bridge.js';
import { captureForm } from './capture.upload.js';
import { addLiveRoutes } from './live.routes.js';
import { signGuard } from './sign.guard.js';
import { receiptJson, summaryJson } from './sign.json.js';
import { signOpenapi } from './sign.openapi.js';
import { addSignPage } from './sign.page.js';

const DOCUMENT_DEADLINE_MS = 120_000;

const consentBody = z.object({ consent_text_version: z.string().min(1).max(64) });
const verifyBody = z.object({ response: z.record(z.string(), z.unknown()) });
const forensicBody = z.object({
  events: z
    .array(
      z.object({
        type: z.string().min(1).max(64),
        t: z.number().finite().nonnegative(),
        data: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .max(500),
});

function field(issue: z.core.$ZodIssue): string {
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw badRequest(field(r.error.issues[0]!));
  return r.data;
}

/** Waits until the response can take more, or is gone. */
const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

/** /api/sign/{token}/*: the public signing ceremony, authorised by the token; and the page at /sign/{token}. */
export function signRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  const sign = signGuard(ctx);
  const { guard, limits, tokenOf, ua } = sign;
  const json64k = express.json({ limit: '64kb' });
  const json256k = express.json({ limit: '256kb' });

  // The token is a bearer secret and the answers describe the signer: no cache keeps any of them,
  // refusals included (set before the guard; a route may make it stricter).
  router.use('/api/sign', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.get('/api/sign/:token/summary', guard, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(summaryJson(await ctx.ceremony.getSummary({ token: tokenOf(req) })));
  });

  /** The document being signed, streamed from the transaction service, for the signer to read. */
  router.get('/api/sign/:token/document', guard, async (req, res) => {
    const stream = ctx.transaction.serverStream(
      transactionV1.TransactionServiceService.getSigningDocument,
      { token: tokenOf(req) },
      { deadlineMs: DOCUMENT_DEADLINE_MS },
    );
    res.on('close', () => stream.cancel());
    let started = false;
    try {
      for await (const chunk of stream) {
        if (!started) {
          started = true;
          const name = (chunk.name || 'document.pdf').replace(/[^\w .,()-]/g, '_');
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Length', String(chunk.size));
          res.setHeader('Content-Disposition', `inline; filename="${name}"`);
          res.setHeader('Cache-Control', 'private, no-store');
          res.setHeader('X-Content-Type-Options', 'nosniff');
        }
        if (chunk.data.length && !res.write(chunk.data)) await drained(res);
      }
    } catch (err) {
      if (started) return void res.destroy();
      if (err instanceof RpcError && err.code === status.CANCELLED) return; // the client went away
      if (err instanceof RpcError && err.code === status.NOT_FOUND)
        throw new HttpError(404, 'this signing link is not valid: it may have been cancelled or already completed');
      throw err;
    }
    res.end();
  });

  router.post('/api/sign/:token/consent', guard, json64k, async (req, res) => {
    const body = parse(consentBody, req.body);
    const s = await ctx.ceremony.recordConsent({
      token: tokenOf(req),
      consentTextVersion: body.consent_text_version,
      ip: req.ip ?? '',
      userAgent: ua(req),
    });
    res.status(201).json(summaryJson(s));
  });

  router.get('/api/sign/:token/challenge', guard, async (req, res) => {
    const c = await ctx.ceremony.issueChallenge({ token: tokenOf(req) });
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      words: c.words,
      actions: c.actions,
      nonce: c.nonce,
      expires_at: c.expiresAt,
      attempt: c.attempt,
      action_seconds: c.actionSeconds,
      read_seconds: c.readSeconds,
      timeline: c.timeline
        ? {
            segment_ms: c.timeline.segmentMs,
            words_start_ms: c.timeline.wordsStartMs,
            words_end_ms: c.timeline.wordsEndMs,
            actions: c.timeline.actions.map((a) => ({ action: a.action, start_ms: a.startMs, end_ms: a.endMs })),
            colours: c.timeline.colours,
            total_ms: c.timeline.totalMs,
          }
        : null,
      draws_left: c.drawsLeft,
      assurance: c.assurance,
    });
  });

  router.post('/api/sign/:token/capture', guard, async (req, res) => {
    await limits.capture(req);
    if (!req.is('multipart/form-data'))
      throw badRequest('capture must be multipart/form-data with fields nonce, video and frame');
    const receipt = await bridgeUpload(req, captureForm(ctx, req, tokenOf(req), ua(req)));
    res.status(201).json(receiptJson(receipt));
  });

  addLiveRoutes(router, ctx, sign);

  router.post('/api/sign/:token/webauthn/options', guard, async (req, res) => {
    const o = await ctx.ceremony.getWebauthnOptions({ token: tokenOf(req) });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ kind: o.kind, options: JSON.parse(o.optionsJson) as unknown });
  });

  router.post('/api/sign/:token/webauthn/verify', guard, json256k, async (req, res) => {
    const body = parse(verifyBody, req.body);
    const r = await ctx.ceremony.verifyWebauthn({ token: tokenOf(req), responseJson: JSON.stringify(body.response) });
    res.json({ verified: r.verified, kind: r.kind, verification_mode: r.verificationMode });
  });

  router.post('/api/sign/:token/forensic', guard, json64k, async (req, res) => {
    const body = parse(forensicBody, req.body);
    const r = await ctx.ceremony.logForensic({
      token: tokenOf(req),
      batchJson: JSON.stringify(req.body),
      ip: req.ip ?? '',
      userAgent: ua(req),
    });
    void body;
    res.status(202).json({ batch: r.batch, batches_left: r.batchesLeft, received_at: r.receivedAt });
  });

  addSignPage(router);

  return { router, openapi: signOpenapi() };
}
