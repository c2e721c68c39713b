/**
 * Members and roles, API keys with scopes and expiry, through the gateway (issue 34 items 1 and 2):
 * an invitation mailed (Mailpit) and accepted once; a member works on the organisation's
 * transactions within their role; a key never acts above its scopes nor its member's role now; an
 * expired key is refused at once, also after it was cached; a removed member's session and keys stop
 * at once; another organisation sees none of it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { addMember, csrfOf, invitationCode, keyOf } from '../support/members.js';

const suffix = randomBytes(3).toString('hex');
const ip = () => ({ 'x-forwarded-for': `10.34.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });

describe('members and roles, keys with scopes and expiry', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let owner: Account;
  let other: Account;
  let ownerTx: number;
  let ownerKey: string;
  let otherKey: string;
  const get = (path: string, auth: { apiKey?: string; token?: string }) =>
    send(stack.gatewayUrl, 'GET', path, { ...auth, ...(auth.token ? { headers: TEST } : {}) });

  // Test mode throughout: free, so the Free plan's monthly quota never answers 402 here. A session asks
  // for it with Signet-Mode; a key is made as a test key.
  const TEST = { 'signet-mode': 'test' };
  const create = (auth: { apiKey?: string; token?: string }) =>
    send(stack.gatewayUrl, 'POST', '/api/transactions', {
      ...auth,
      ...(auth.token ? { headers: TEST } : {}),
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
  const admin = async (method: string, path: string, token: string, json?: unknown) =>
    send(
      stack.gatewayUrl,
      method,
      `${path}${path.includes('?') ? '&' : '?'}csrf=${encodeURIComponent(await csrfOf(stack.gatewayUrl, token))}`,
      {
        token,
        ...(json !== undefined ? { json } : {}),
      },
    );

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'MEMB',
        BUCKET_DOCUMENTS: `memb-docs-${suffix}`,
        BUCKET_REFERENCES: `memb-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
        AUTH_RATE_LIMIT_SCALE: '1000',
      },
    });
    [owner, other] = await Promise.all([
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'org-owner', orgName: 'Members Ltd' }),
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'other-owner', orgName: 'Elsewhere Ltd' }),
    ]);
    [ownerKey, otherKey] = await Promise.all([
      keyOf(stack.gatewayUrl, owner.token, { mode: 'test' }).then((k) => k.key!),
      keyOf(stack.gatewayUrl, other.token, { mode: 'test' }).then((k) => k.key!),
    ]);
    const tx = await create({ apiKey: ownerKey });
    expect(tx.status, tx.text).toBe(201);
    ownerTx = tx.body.id as number;
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('an invitation is mailed, listed while pending, accepted once, and the member works in the organisation', async () => {
    const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
    const inv = await admin('POST', '/api/admin/members/invitations', owner.token, { email, role: 'sender' });
    expect(inv.status, inv.text).toBe(201);
    expect(inv.body).toMatchObject({ email, role: 'sender', invited_by: owner.userId });
    const listed = await send(stack.gatewayUrl, 'GET', '/api/admin/members', { token: owner.token });
    expect(listed.body.invitations.map((i: { email: string }) => i.email)).toContain(email);
    const code = await invitationCode(email);
    const join = (password = 'a long enough password') =>
      send(stack.gatewayUrl, 'POST', '/api/auth/invitations/accept', {
        headers: ip(),
        json: { code, name: 'Sam Sender', password },
      });
    // A bad body leaves the invitation usable.
    expect((await join('short')).status).toBe(400);
    const joined = await join();
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.org_name).toBe('Members Ltd');
    // Single use.
    expect((await join()).status).toBe(401);
    const token = joined.body.token as string;
    const me = await send(stack.gatewayUrl, 'POST', '/api/auth/me', { token });
    expect(me.body).toMatchObject({ email, role: 'sender', organisation_id: owner.userId, org_name: 'Members Ltd' });
    const after = await send(stack.gatewayUrl, 'GET', '/api/admin/members', { token: owner.token });
    expect(after.body.invitations.map((i: { email: string }) => i.email)).not.toContain(email);
    expect(after.body.members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: owner.userId, role: 'owner' }),
        expect.objectContaining({ email, role: 'sender' }),
      ]),
    );
    // The organisation's transactions are the member's to see, and theirs the owner's.
    expect((await get(`/api/transactions/${ownerTx}`, { token })).status).toBe(200);
    const made = await create({ token });
    expect(made.status, made.text).toBe(201);
    const detail = await get(`/api/transactions/${made.body.id}`, { apiKey: ownerKey });
    expect(detail.status).toBe(200);
    // The transaction records the member who created it.
    expect(detail.body.created_by).toEqual({ user_id: me.body.user_id, email });
    expect((await get(`/api/transactions/${ownerTx}`, { token })).body.created_by).toEqual({
      user_id: owner.userId,
      email: owner.email,
    });
    // Another organisation sees neither.
    for (const id of [ownerTx, made.body.id])
      expect((await get(`/api/transactions/${id}`, { apiKey: otherKey })).status).toBe(404);
    const others = await send(stack.gatewayUrl, 'GET', '/api/admin/members', { token: other.token });
    expect(others.body.members.map((m: { email: string }) => m.email)).toEqual([other.email]);
  }, 60_000);

  it('an address with an account cannot be invited; a withdrawn invitation’s link stops working', async () => {
    expect(
      (await admin('POST', '/api/admin/members/invitations', owner.token, { email: other.email, role: 'viewer' })).status,
    ).toBe(409);
    const email = `withdrawn-${randomBytes(4).toString('hex')}@example.com`;
    const inv = await admin('POST', '/api/admin/members/invitations', owner.token, { email, role: 'viewer' });
    const code = await invitationCode(email);
    expect((await admin('DELETE', `/api/admin/members/invitations/${inv.body.id}`, owner.token)).status).toBe(204);
    const join = await send(stack.gatewayUrl, 'POST', '/api/auth/invitations/accept', {
      headers: ip(),
      json: { code, name: 'Late', password: 'a long enough password' },
    });
    expect(join.status).toBe(401);
    // Another organisation cannot withdraw this one's invitations.
    const again = await admin('POST', '/api/admin/members/invitations', owner.token, { email, role: 'viewer' });
    expect((await admin('DELETE', `/api/admin/members/invitations/${again.body.id}`, other.token)).status).toBe(404);
  }, 60_000);

  it('roles are enforced: a viewer reads only, a sender cannot manage, an admin cannot touch owners', async () => {
    const viewer = await addMember(stack.gatewayUrl, owner.token, 'viewer');
    const sender = await addMember(stack.gatewayUrl, owner.token, 'sender');
    const adm = await addMember(stack.gatewayUrl, owner.token, 'admin');
    expect((await get('/api/transactions', { token: viewer.token })).status).toBe(200);
    const refused = await create({ token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/needs the sender role; yours is viewer/);
    expect(
      (await send(stack.gatewayUrl, 'POST', `/api/transactions/${ownerTx}/cancel`, { token: viewer.token, headers: TEST }))
        .status,
    ).toBe(403);
    expect((await send(stack.gatewayUrl, 'GET', '/api/admin/api-keys', { token: sender.token })).status).toBe(403);
    expect(
      (await admin('POST', '/api/admin/members/invitations', sender.token, { email: 'x@example.com', role: 'viewer' })).status,
    ).toBe(403);
    expect(
      (await admin('POST', '/api/admin/members/invitations', adm.token, { email: 'y@example.com', role: 'owner' })).status,
    ).toBe(403);
    expect((await admin('PATCH', `/api/admin/members/${owner.userId}`, adm.token, { role: 'viewer' })).status).toBe(409);
    expect((await admin('DELETE', `/api/admin/members/${owner.userId}`, owner.token)).status).toBe(409);
    // An admin of another organisation finds no such member here.
    expect((await admin('PATCH', `/api/admin/members/${sender.userId}`, other.token, { role: 'admin' })).status).toBe(404);
    // A promotion applies from the next request.
    expect((await admin('PATCH', `/api/admin/members/${viewer.userId}`, adm.token, { role: 'sender' })).status).toBe(200);
    expect((await create({ token: viewer.token })).status).toBe(201);
  }, 90_000);

  it('a key acts within its scopes and never above its member’s role now', async () => {
    const adm = await addMember(stack.gatewayUrl, owner.token, 'admin', 'keyadmin');
    const read = await keyOf(stack.gatewayUrl, adm.token, { scopes: ['read'], mode: 'test' });
    expect(read.status, read.text).toBe(201);
    expect(read.body).toMatchObject({ scopes: ['read'], expires_at: null, created_by: adm.userId });
    expect((await get(`/api/transactions/${ownerTx}`, { apiKey: read.key })).status).toBe(200);
    expect((await create({ apiKey: read.key })).status).toBe(403);
    const full = await keyOf(stack.gatewayUrl, adm.token, { mode: 'test' });
    expect(full.body.scopes).toEqual(['read', 'write', 'admin']);
    const hook = { url: 'https://hooks.example.com/signet', event_types: ['transaction.created'] };
    // Used once as an admin (and so cached), then its member becomes a sender: the key is a sender's at once.
    expect((await send(stack.gatewayUrl, 'GET', '/api/webhook-endpoints', { apiKey: full.key })).status).toBe(200);
    expect((await admin('PATCH', `/api/admin/members/${adm.userId}`, owner.token, { role: 'sender' })).status).toBe(200);
    const demoted = await send(stack.gatewayUrl, 'POST', '/api/webhook-endpoints', { apiKey: full.key, json: hook });
    expect(demoted.status).toBe(403);
    expect((await create({ apiKey: full.key })).status).toBe(201);
    // A sender cannot make keys at all; the organisation's admins see every member's keys.
    expect((await keyOf(stack.gatewayUrl, adm.token)).status).toBe(403);
    const listed = await send(stack.gatewayUrl, 'GET', '/api/admin/api-keys', { token: owner.token });
    expect(listed.body.api_keys.map((k: { created_by: string }) => k.created_by)).toContain(adm.userId);
    expect((await keyOf(stack.gatewayUrl, owner.token, { scopes: ['root'] })).status).toBe(400);
  }, 90_000);

  it('an expired key is refused at once, also after it was cached; an expiry in the past is a 400', async () => {
    expect((await keyOf(stack.gatewayUrl, owner.token, { expires_at: new Date(Date.now() - 1000).toISOString() })).status).toBe(
      400,
    );
    const expiresAt = Date.now() + 4000;
    const k = await keyOf(stack.gatewayUrl, owner.token, { expires_at: new Date(expiresAt).toISOString() });
    expect(k.status, k.text).toBe(201);
    expect(Date.parse(k.body.expires_at)).toBe(Math.floor(expiresAt));
    expect((await get('/api/transactions', { apiKey: k.key })).status).toBe(200);
    expect((await get('/api/transactions', { apiKey: k.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));
    const late = await get('/api/transactions', { apiKey: k.key });
    expect(late.status).toBe(401);
  }, 30_000);

  it('removing a member stops their session and keys at once; their transactions stay the organisation’s', async () => {
    const gone = await addMember(stack.gatewayUrl, owner.token, 'admin', 'leaver');
    const k = await keyOf(stack.gatewayUrl, gone.token, { mode: 'test' });
    const made = await create({ apiKey: k.key });
    expect(made.status).toBe(201);
    // Both credentials used (and cached) before the removal.
    expect((await get('/api/transactions', { token: gone.token })).status).toBe(200);
    expect((await get('/api/transactions', { apiKey: k.key })).status).toBe(200);
    expect((await admin('DELETE', `/api/admin/members/${gone.userId}`, owner.token)).status).toBe(204);
    expect((await get('/api/transactions', { token: gone.token })).status).toBe(401);
    expect((await get('/api/transactions', { apiKey: k.key })).status).toBe(401);
    expect((await get(`/api/transactions/${made.body.id}`, { apiKey: ownerKey })).status).toBe(200);
    const members = await send(stack.gatewayUrl, 'GET', '/api/admin/members', { token: owner.token });
    expect(members.body.members.map((m: { user_id: string }) => m.user_id)).not.toContain(gone.userId);
    expect((await admin('DELETE', `/api/admin/members/${gone.userId}`, owner.token)).status).toBe(404);
  }, 60_000);
});
