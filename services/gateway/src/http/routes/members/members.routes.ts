import express, { Router } from 'express';
import { z } from 'zod';
import type { identityV1 } from '@signet/proto';
import { callerOf, invalidateCredentials } from '../../auth.js';
import { ROLES, type GatewayContext, type RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { AUTH_LIMITS, rateLimit } from '../../rate-limit.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { fields, loginResult } from '../auth/auth.schemas.js';
import { limited, sessionJson } from '../auth/auth.shared.js';
import { auditCall } from '../auth/client-info.js';

const role = z.enum(ROLES).meta({
  description:
    'viewer reads; sender also creates and acts on transactions, templates and bulk sends; admin also manages API keys, ' +
    'webhooks, members (not owners), settings and branding; owner also billing and ownership',
});
const time = z.string().meta({ format: 'date-time' });
const memberSchema = z
  .object({ user_id: z.string(), email: z.string(), name: z.string(), role, joined_at: time })
  .meta({ id: 'Member' });
const invitationSchema = z
  .object({ id: z.string(), email: z.string(), role, invited_by: z.string(), created_at: time, expires_at: time })
  .meta({ id: 'Invitation' });
const csrfQuery = z.object({ csrf: z.string().meta({ description: 'Token from GET /api/admin/csrf' }) });
const userParams = z.object({ user_id: z.string().min(1).max(64) });

const memberOut = (m: identityV1.Member): z.input<typeof memberSchema> => ({
  user_id: m.userId,
  email: m.email,
  name: m.name,
  role: m.role as z.input<typeof role>,
  joined_at: m.joinedAt,
});
const invitationOut = (i: identityV1.Invitation): z.input<typeof invitationSchema> => ({
  id: i.id,
  email: i.email,
  role: i.role as z.input<typeof role>,
  invited_by: i.invitedBy,
  created_at: i.createdAt,
  expires_at: i.expiresAt,
});

/**
 * Members and roles (issue 34 item 1). An organisation is its owner's account; members are invited
 * by e-mail, join through the mailed link, and act in the organisation with their role. Under
 * /api/admin: mounted after adminRoutes, whose guard (session only, CSRF on mutations) covers these;
 * API keys never manage members (a leaked key must not let anyone in). Identity checks the actor's
 * role again. A change that narrows what someone may do (role, removal) drops every cached
 * credential at once, so it holds from the member's next request.
 */
export function membersRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();

  const routes = [listRoute(ctx), inviteRoute(ctx), withdrawRoute(ctx), changeRoleRoute(ctx), removeRoute(ctx), acceptRoute(ctx)];
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}

const common = { tags: ['Members'], security: 'session' as const };
const noStore = { 'Cache-Control': HEADERS.cacheControl };
const mutationErrors = errorResponses(400, 401, 403);

function listRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/members',
    operationId: 'listMembers',
    role: 'viewer',
    summary: 'The organisation’s members and its pending invitations',
    responses: {
      200: {
        description: 'Members (oldest first) and pending invitations (newest first)',
        body: z.object({ members: z.array(memberSchema), invitations: z.array(invitationSchema) }),
        headers: noStore,
      },
      ...errorResponses(401),
    },
    async handle(_input, _req, res) {
      const out = await ctx.identity.listMembers({ actorId: callerOf(res).userId });
      return {
        status: 200 as const,
        body: { members: out.members.map(memberOut), invitations: out.invitations.map(invitationOut) },
      };
    },
  });
}

function inviteRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/admin/members/invitations',
    operationId: 'inviteMember',
    role: 'admin',
    summary: 'Invite someone by e-mail; the mail carries a single-use link valid for 7 days',
    description:
      'Admins invite viewers, senders and admins; only owners invite owners. An address that already has a Signet ' +
      'account is 409 (it cannot bring its own organisation along). Inviting the same address again withdraws the ' +
      'earlier invitation.',
    query: csrfQuery,
    body: z.strictObject({ email: fields.email, role }),
    responses: {
      201: { description: 'Invited', body: invitationSchema, headers: noStore },
      ...mutationErrors,
      ...errorResponses(409),
    },
    async handle({ body }, req, res) {
      const inv = await ctx.identity.inviteMember(
        {
          actorId: callerOf(res).userId,
          email: body.email,
          role: body.role,
          acceptUrl: `${ctx.cfg.PUBLIC_BASE_URL}/app/join#code=`,
        },
        auditCall(req),
      );
      return { status: 201 as const, body: invitationOut(inv) };
    },
  });
}

function withdrawRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'delete',
    path: '/api/admin/members/invitations/{id}',
    operationId: 'revokeInvitation',
    role: 'admin',
    summary: 'Withdraw a pending invitation; its link stops working',
    params: z.object({ id: z.string().min(1).max(64) }),
    invalidParams: () => new HttpError(404, 'no such invitation'),
    query: csrfQuery,
    responses: { 204: { description: 'Withdrawn' }, ...mutationErrors, ...errorResponses(404) },
    async handle({ params }, req, res) {
      await ctx.identity.revokeInvitation({ actorId: callerOf(res).userId, id: params.id }, auditCall(req));
      res.status(204).end();
      return undefined;
    },
  });
}

function changeRoleRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'patch',
    path: '/api/admin/members/{user_id}',
    operationId: 'changeMemberRole',
    role: 'admin',
    summary: 'Give a member another role; it applies from their next request',
    description:
      'Admins move members between viewer, sender and admin; only owners change owners or make one. The founding owner ' +
      '(whose id is the organisation’s) stays owner: 409.',
    params: userParams,
    invalidParams: () => new HttpError(404, 'no such member'),
    query: csrfQuery,
    body: z.strictObject({ role }),
    responses: {
      200: { description: 'The member now', body: memberSchema, headers: noStore },
      ...mutationErrors,
      ...errorResponses(404, 409),
    },
    async handle({ params, body }, req, res) {
      const m = await ctx.identity.changeMemberRole(
        { actorId: callerOf(res).userId, userId: params.user_id, role: body.role },
        auditCall(req),
      );
      await invalidateCredentials(ctx);
      return { status: 200 as const, body: memberOut(m) };
    },
  });
}

function removeRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'delete',
    path: '/api/admin/members/{user_id}',
    operationId: 'removeMember',
    role: 'admin',
    summary: 'Remove a member: their sessions and API keys stop at once',
    description:
      'The transactions they created stay the organisation’s. Admins remove anyone but owners; the founding owner stays (409).',
    params: userParams,
    invalidParams: () => new HttpError(404, 'no such member'),
    query: csrfQuery,
    responses: { 204: { description: 'Removed' }, ...mutationErrors, ...errorResponses(404, 409) },
    async handle({ params }, req, res) {
      await ctx.identity.removeMember({ actorId: callerOf(res).userId, userId: params.user_id }, auditCall(req));
      // Identity has deleted the member and revoked their keys: no replica may serve them from its cache.
      await invalidateCredentials(ctx);
      res.status(204).end();
      return undefined;
    },
  });
}

function acceptRoute(ctx: GatewayContext) {
  return defineRoute({
    tags: ['Members'],
    security: 'public',
    method: 'post',
    path: '/api/auth/invitations/accept',
    operationId: 'acceptInvitation',
    summary: 'Join an organisation through an invitation: creates the account and signs it in',
    description:
      'The code is the one in the invitation mail’s link (after #code=); it works once, for 7 days. The account’s ' +
      'e-mail is the invited address. An unknown, used, withdrawn or expired code: 401.',
    extensions: limited(AUTH_LIMITS.register),
    use: [rateLimit(ctx, AUTH_LIMITS.register), express.json({ limit: '16kb' })],
    body: z.strictObject({ code: fields.token, name: fields.name, password: fields.newPassword }),
    responses: {
      200: { description: 'A session of the new member', body: loginResult, headers: noStore },
      ...errorResponses(400, 401, 409, 429),
    },
    async handle({ body }, req, res) {
      const s = await ctx.identity.acceptInvitation(
        { code: body.code, name: body.name, password: body.password },
        auditCall(req),
      );
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200 as const, body: sessionJson(s) };
    },
  });
}
