import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { transactionV1 } from '@signet/proto';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { pipePdfStream } from '../../pdf-stream.js';
import { bridgeUpload } from '../../upload/upload-bridge.js';
import { captureForm } from './capture.upload.js';
import { declineRoutes } from './decline.routes.js';
import { fieldsRoutes } from './fields.routes.js';
import { liveRoutes } from './live.routes.js';
import { noStore, notValidLink, SIGN_TAGS, signGuard, type SignGuard } from './sign.guard.js';
import { receiptJson, summaryJson } from './sign.json.js';
import { addSignPage } from './sign.page.js';
import {
  binary,
  captureForm as captureFormSchema,
  challengeSchema,
  consentBody,
  forensicBody,
  forensicReceiptSchema,
  receiptSchema,
  summarySchema,
  tokenParams,
  verifyBody,
  webauthnOptionsSchema,
  webauthnResultSchema,
} from './sign.schemas.js';

const DOCUMENT_DEADLINE_MS = 120_000;

/** /api/sign/{token}/*: the public signing ceremony, authorised by the token; and the page at /sign/{token}. */
export function signRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  const sign = signGuard(ctx);

  // The token is a bearer secret and the answers describe the signer: no cache keeps any of them,
  // refusals included (set before the guard; a route may make it stricter).
  router.use('/api/sign', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  const routes = [
    summaryRoute(ctx, sign),
    documentRoute(ctx, sign),
    consentRoute(ctx, sign),
    challengeRoute(ctx, sign),
    captureRoute(ctx, sign),
    ...liveRoutes(ctx, sign),
    ...declineRoutes(ctx, sign),
    ...fieldsRoutes(ctx, sign),
    webauthnOptionsRoute(ctx, sign),
    webauthnVerifyRoute(ctx, sign),
    forensicRoute(ctx, sign),
  ];
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  addSignPage(router, ctx);

  return { router, routes };
}

const json64k = express.json({ limit: '64kb' });
const json256k = express.json({ limit: '256kb' });
const common = { tags: SIGN_TAGS, security: 'public' as const, params: tokenParams, invalidParams: notValidLink };

function summaryRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf } = sign;
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/sign/{token}/summary',
    operationId: 'getSigningSummary',
    summary: 'The signing session: step, attempts left, outcome',
    use: [guard],
    responses: { 200: { description: 'The session', body: summarySchema, headers: noStore }, ...errorResponses(400, 404, 429) },
    async handle(_input, req) {
      return { status: 200 as const, body: summaryJson(await ctx.ceremony.getSummary({ token: tokenOf(req) })) };
    },
  });
}

/** The document being signed, streamed from the transaction service, for the signer to read. */
function documentRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf } = sign;
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/sign/{token}/document',
    operationId: 'getSigningDocument',
    summary: 'The PDF being signed, for the signer to read',
    use: [guard],
    responses: {
      200: {
        description: 'The document',
        content: { 'application/pdf': binary('The PDF') },
        headers: { 'Cache-Control': { description: 'private, no-store', schema: HEADERS.cacheControl.schema } },
      },
      ...errorResponses(400, 404, 429),
    },
    async handle(_input, req, res) {
      const stream = ctx.transaction.serverStream(
        transactionV1.TransactionServiceService.getSigningDocument,
        { token: tokenOf(req) },
        { deadlineMs: DOCUMENT_DEADLINE_MS },
      );
      await pipePdfStream(res, stream, {
        disposition: (first) => `inline; filename="${(first.name || 'document.pdf').replace(/[^\w .,()-]/g, '_')}"`,
        // A link that ended with its transaction (declined, expired) says so.
        notFound: (err) =>
          err.reason === 'SIGNING_LINK_ENDED'
            ? err.details
            : 'this signing link is not valid: it may have been cancelled or already completed',
      });
      return undefined;
    },
  });
}

function consentRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf, ua } = sign;
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/consent',
    operationId: 'recordConsent',
    summary: 'Record the signer’s consent',
    description: 'A second consent is 409.',
    use: [guard, json64k],
    body: consentBody,
    responses: {
      201: { description: 'Consent recorded; the session', body: summarySchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle({ body }, req) {
      const s = await ctx.ceremony.recordConsent({
        token: tokenOf(req),
        consentTextVersion: body.consent_text_version,
        ip: req.ip ?? '',
        userAgent: ua(req),
      });
      return { status: 201 as const, body: summaryJson(s) };
    },
  });
}

function challengeRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf } = sign;
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/sign/{token}/challenge',
    operationId: 'issueChallenge',
    summary: 'Issue random words and liveness actions',
    description:
      'For a single upload, which proves the "recorded" assurance at most: offered only where the sender accepts recorded (else 409 LIVE_REQUIRED, nothing drawn). ' +
      'With a nonce valid 2 minutes; replaces any earlier challenge.',
    use: [guard],
    responses: {
      200: { description: 'The challenge', body: challengeSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 429),
    },
    async handle(_input, req) {
      const c = await ctx.ceremony.issueChallenge({ token: tokenOf(req) });
      return {
        status: 200 as const,
        body: {
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
                flash: c.timeline.flash
                  ? { segment: c.timeline.flash.segment, step_ms: c.timeline.flash.stepMs, colours: c.timeline.flash.colours }
                  : null,
              }
            : null,
          draws_left: c.drawsLeft,
          assurance: c.assurance,
        },
      };
    },
  });
}

function captureRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, limits, tokenOf, ua } = sign;
  const captureLimit = async (req: Request, _res: Response, next: NextFunction) => {
    await limits.capture(req);
    if (!req.is('multipart/form-data'))
      throw badRequest('capture must be multipart/form-data with fields nonce, video and frame');
    next();
  };
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/capture',
    operationId: 'submitCapture',
    summary: 'Submit the signing video and final frame with the challenge nonce',
    description: 'multipart/form-data, streamed: nonce first, then video (WebM/MP4, ≤50 MB, ≤30 s), then frame (JPEG/PNG).',
    use: [guard, captureLimit],
    rawBody: { content: { 'multipart/form-data': captureFormSchema } },
    responses: {
      201: { description: 'Capture accepted', body: receiptSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle(_input, req) {
      const receipt = await bridgeUpload(req, captureForm(ctx, req, tokenOf(req), ua(req)));
      return { status: 201 as const, body: receiptJson(receipt) };
    },
  });
}

function webauthnOptionsRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf } = sign;
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/webauthn/options',
    operationId: 'getWebauthnOptions',
    summary: 'WebAuthn registration or authentication options bound to the document and nonce',
    use: [guard],
    responses: {
      200: { description: 'The options', body: webauthnOptionsSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 429),
    },
    async handle(_input, req) {
      const o = await ctx.ceremony.getWebauthnOptions({ token: tokenOf(req) });
      return { status: 200 as const, body: { kind: o.kind, options: JSON.parse(o.optionsJson) as Record<string, unknown> } };
    },
  });
}

function webauthnVerifyRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf } = sign;
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/webauthn/verify',
    operationId: 'verifyWebauthn',
    summary: 'Verify the WebAuthn registration or assertion',
    use: [guard, json256k],
    body: verifyBody,
    responses: {
      200: { description: 'The result', body: webauthnResultSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle({ body }, req) {
      const r = await ctx.ceremony.verifyWebauthn({ token: tokenOf(req), responseJson: JSON.stringify(body.response) });
      return { status: 200 as const, body: { verified: r.verified, kind: r.kind, verification_mode: r.verificationMode } };
    },
  });
}

function forensicRoute(ctx: GatewayContext, sign: SignGuard) {
  const { guard, tokenOf, ua } = sign;
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/forensic',
    operationId: 'logForensicEvents',
    summary: 'Log a batch of client forensic events',
    description: 'At most 64 KB a batch and 200 batches a session.',
    use: [guard, json64k],
    body: forensicBody,
    responses: {
      202: { description: 'Stored', body: forensicReceiptSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle(_input, req) {
      const r = await ctx.ceremony.logForensic({
        token: tokenOf(req),
        batchJson: JSON.stringify(req.body),
        ip: req.ip ?? '',
        userAgent: ua(req),
      });
      return { status: 202 as const, body: { batch: r.batch, batches_left: r.batchesLeft, received_at: r.receivedAt } };
    },
  });
}
