import { z } from 'zod';
import type { GatewayContext } from '../../context.js';
import { callerOf } from '../../auth.js';
import { HttpError } from '../../errors.js';
import { AUTH_LIMITS } from '../../rate-limit.js';
import { defineRoute, errorResponses } from '../../route.js';
import { fields, loginResult } from './auth.schemas.js';
import { type AuthKit, sessionJson, limited } from './auth.shared.js';
import { clientInfo } from './client-info.js';

const time = z.string().meta({ format: 'date-time' });
const passkey = z
  .object({ id: z.string(), name: z.string(), created_at: time, last_used_at: time.nullable() })
  .meta({ id: 'Passkey' });
const webauthnOptions = z.record(z.string(), z.unknown()).meta({
  description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON, for navigator.credentials',
});
const webauthnResponse = z
  .object({ id: z.string().min(1).max(1024), type: z.literal('public-key'), response: z.record(z.string(), z.unknown()) })
  .loose()
  .meta({ description: 'The credential as JSON (RegistrationResponseJSON or AuthenticationResponseJSON)' });
const status = z
  .object({ totp_enabled: z.boolean(), passkeys: z.int(), recovery_codes_left: z.int() })
  .meta({ id: 'SecurityStatus' });

const RECOVERY_CODES_DEADLINE_MS = 30_000;
const options = (json: string) => JSON.parse(json) as Record<string, unknown>;
const passkeyOut = (p: { id: string; name: string; createdAt: string; lastUsedAt: string }) => ({
  id: p.id,
  name: p.name,
  created_at: p.createdAt,
  last_used_at: p.lastUsedAt || null,
});

/** Passkeys (register, list, rename, remove, sign in with one) and recovery codes. */
export function passkeyRoutes(ctx: GatewayContext, { json, limit, session, noStore, ok, publicOp, sessionOp }: AuthKit) {
  return [
    registrationOptionsRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    registerRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    listRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    removeRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    renameRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    loginOptionsRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    loginRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    recoveryCodesRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    securityStatusRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
  ];
}

function registrationOptionsRoute(ctx: GatewayContext, { session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/passkeys/options',
    operationId: 'passkeyRegistrationOptions',
    summary: 'Start registering a passkey: options for navigator.credentials.create (valid 5 minutes, once)',
    use: [session],
    responses: { 200: ok('Creation options', webauthnOptions, noStore), ...errorResponses(401, 409) },
    async handle(_input, _req, res) {
      const o = await ctx.security.startPasskeyRegistration({ userId: callerOf(res).userId });
      return { status: 200 as const, body: options(o.optionsJson) };
    },
  });
}

function registerRoute(ctx: GatewayContext, { json, session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/passkeys',
    operationId: 'registerPasskey',
    summary: 'Finish registering a passkey with the authenticator’s answer; from then on it signs in',
    description:
      'An account with a passkey signs in with the passkey alone, or after its password with a passkey, a TOTP code or a recovery code.',
    use: [session, json],
    body: z.object({ name: z.string().trim().max(64).optional(), response: webauthnResponse }),
    responses: { 201: ok('Registered', passkey, noStore), ...errorResponses(400, 401, 409) },
    async handle({ body: b }, req, res) {
      const p = await ctx.security.finishPasskeyRegistration({
        userId: callerOf(res).userId,
        name: b.name ?? '',
        responseJson: JSON.stringify(b.response),
        client: clientInfo(req),
      });
      return { status: 201 as const, body: passkeyOut(p) };
    },
  });
}

function listRoute(ctx: GatewayContext, { session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'get',
    path: '/api/auth/passkeys',
    operationId: 'listPasskeys',
    summary: 'The passkeys of the signed-in user',
    use: [session],
    responses: { 200: ok('Passkeys, oldest first', z.object({ passkeys: z.array(passkey) }), noStore), ...errorResponses(401) },
    async handle(_input, _req, res) {
      const out = await ctx.security.listPasskeys({ userId: callerOf(res).userId });
      return { status: 200 as const, body: { passkeys: out.passkeys.map(passkeyOut) } };
    },
  });
}

function removeRoute(ctx: GatewayContext, { session, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'delete',
    path: '/api/auth/passkeys/{id}',
    operationId: 'removePasskey',
    summary: 'Remove a passkey: it signs nobody in afterwards',
    params: z.object({ id: z.string().min(1).max(64) }),
    invalidParams: () => new HttpError(404, 'no such passkey'),
    use: [session],
    responses: { 204: { description: 'Removed' }, ...errorResponses(401, 404) },
    async handle({ params }, req, res) {
      await ctx.security.removePasskey({ userId: callerOf(res).userId, passkeyId: params.id, client: clientInfo(req) });
      res.status(204).end();
      return undefined;
    },
  });
}

function renameRoute(ctx: GatewayContext, { json, session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'patch',
    path: '/api/auth/passkeys/{id}',
    operationId: 'renamePasskey',
    summary: 'Rename a passkey (audited as passkey.renamed)',
    params: z.object({ id: z.string().min(1).max(64) }),
    invalidParams: () => new HttpError(404, 'no such passkey'),
    use: [session, json],
    body: z.object({ name: z.string().trim().min(1).max(64) }),
    responses: { 200: ok('Renamed', passkey, noStore), ...errorResponses(400, 401, 404) },
    async handle({ params, body: b }, req, res) {
      const p = await ctx.security.renamePasskey({
        userId: callerOf(res).userId,
        passkeyId: params.id,
        name: b.name,
        client: clientInfo(req),
      });
      return { status: 200 as const, body: passkeyOut(p) };
    },
  });
}

function loginOptionsRoute(ctx: GatewayContext, { limit, noStore, ok, publicOp }: AuthKit) {
  return defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/passkey/options',
    operationId: 'passkeyLoginOptions',
    summary: 'Start a passkey sign-in: options for navigator.credentials.get',
    description:
      'With `challenge` (the second-factor challenge of a password sign-in): the passkeys of that account. Without: a ' +
      'passkey-only sign-in with a discoverable credential, which must verify the user (PIN or biometric).',
    extensions: limited(AUTH_LIMITS.login),
    use: [limit(AUTH_LIMITS.login)],
    body: z.object({ challenge: fields.token.optional() }),
    responses: { 200: ok('Request options', webauthnOptions, noStore), ...errorResponses(400, 401, 429) },
    async handle({ body: b }, _req, res) {
      const o = await ctx.security.startPasskeyLogin({ challenge: b.challenge ?? '' });
      // A public route: no session guard sets it, and the options carry a single-use challenge.
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200 as const, body: options(o.optionsJson) };
    },
  });
}

function loginRoute(ctx: GatewayContext, { limit, noStore, ok, publicOp }: AuthKit) {
  return defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/passkey/login',
    operationId: 'passkeyLogin',
    summary: 'Sign in with a passkey (alone, or as the second factor with the password challenge)',
    description: 'Each options challenge answers once and expires after 5 minutes. Any failure is the same 401.',
    extensions: limited(AUTH_LIMITS.login),
    use: [limit(AUTH_LIMITS.login)],
    body: z.object({ challenge: fields.token.optional(), response: webauthnResponse }),
    responses: { 200: ok('A session', loginResult, noStore), ...errorResponses(400, 401, 429) },
    async handle({ body: b }, req, res) {
      const s = await ctx.security.finishPasskeyLogin({
        challenge: b.challenge ?? '',
        responseJson: JSON.stringify(b.response),
        client: clientInfo(req),
      });
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200 as const, body: sessionJson(s) };
    },
  });
}

function recoveryCodesRoute(ctx: GatewayContext, { session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/recovery-codes',
    operationId: 'generateRecoveryCodes',
    summary: 'Ten new one-time recovery codes, shown this once; they replace every earlier code',
    description: 'A recovery code replaces the second factor once (POST /api/auth/2fa/login with recovery_code).',
    use: [session],
    responses: { 200: ok('The codes', z.object({ codes: z.array(z.string()) }), noStore), ...errorResponses(401) },
    async handle(_input, req, res) {
      // Ten argon2id hashes, one after another: longer than the default deadline on a busy host.
      const out = await ctx.security.generateRecoveryCodes(
        { userId: callerOf(res).userId, client: clientInfo(req) },
        { deadlineMs: RECOVERY_CODES_DEADLINE_MS },
      );
      return { status: 200 as const, body: { codes: out.codes } };
    },
  });
}

function securityStatusRoute(ctx: GatewayContext, { session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
    ...sessionOp,
    method: 'get',
    path: '/api/auth/security',
    operationId: 'getSecurityStatus',
    summary: 'What protects the sign-in: TOTP, passkeys, recovery codes left',
    use: [session],
    responses: { 200: ok('Status', status, noStore), ...errorResponses(401) },
    async handle(_input, _req, res) {
      const s = await ctx.security.getSecurityStatus({ userId: callerOf(res).userId });
      return {
        status: 200 as const,
        body: { totp_enabled: s.totpEnabled, passkeys: s.passkeys, recovery_codes_left: s.recoveryCodesLeft },
      };
    },
  });
}
