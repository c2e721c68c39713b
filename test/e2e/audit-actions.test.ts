/**
 * The account audit log records every account action of issue 34 item 3 through the real gateway,
 * identity, transaction, billing and ledger: API keys created and revoked, members invited, joined,
 * re-roled and removed, an invitation withdrawn, settings, embedding origins and branding (and logo)
 * changed, a transaction's biometrics erased and the transaction deleted, the transactions and the
 * log exported. Each entry names the actor (id and e-mail), the target and the client (address and
 * user agent), and carries no secret; the filter finds it; the CSV export carries the new actions;
 * senders and viewers cannot read the log.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, solidPng, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { addMember, invitationCode } from '../support/members.js';

type Entry = {
  id: string;
  action: string;
  actor_id: string;
  actor_email: string;
  target: string;
  ip: string;
  user_agent: string;
  details: Record<string, string>;
};
const UA = 'AuditActions/1.0 (e2e; ünïcode)';
const suffix = randomBytes(3).toString('hex');

/** A small one-colour PNG logo. */
const logoPng = () => solidPng('0x204080', 64, 32);

describe('account audit log: every account action, with actor, target and client', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let owner: Account;
  const ip = `10.77.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const headers = { 'x-forwarded-for': ip, 'user-agent': UA };

  const csrf = async (token: string) => (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token })).body.csrf as string;
  /** A dashboard change as `token`, from the test's client. */
  async function admin(
    method: string,
    path: string,
    token: string,
    init: { json?: unknown; raw?: { data: Buffer; contentType: string } } = {},
  ) {
    const sep = path.includes('?') ? '&' : '?';
    return send(stack.gatewayUrl, method, `${path}${sep}csrf=${encodeURIComponent(await csrf(token))}`, {
      ...init,
      token,
      headers,
    });
  }
  /** The entries of one action, once at least `n` are there (the outbox's are appended by identity's consumer). */
  async function entries(action: string, n = 1): Promise<Entry[]> {
    return eventually(async () => {
      const r = await send(stack.gatewayUrl, 'GET', `/api/admin/audit-log?action=${encodeURIComponent(action)}`, {
        token: owner.token,
      });
      expect(r.status, r.text).toBe(200);
      const events = r.body.events as Entry[];
      return events.length >= n ? events : undefined;
    }, 20_000);
  }
  /** The newest entry of an action that matches, once it is there. */
  async function entry(action: string, match: (e: Entry) => boolean): Promise<Entry> {
    return eventually(async () => (await entries(action)).find(match), 20_000);
  }
  const fromClient = (e: Entry) => {
    expect(e.ip).toBe(ip);
    expect(e.user_agent).toBe(UA);
  };

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'AUDIT',
        BUCKET_DOCUMENTS: `audit-docs-${suffix}`,
        BUCKET_REFERENCES: `audit-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    owner = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'audited' });
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('API keys: created and revoked, by whom and from where; never the key', async () => {
    const made = await admin('POST', '/api/admin/api-keys', owner.token, { json: { name: 'Audited key', scopes: ['read'] } });
    expect(made.status, made.text).toBe(201);
    expect((await admin('DELETE', `/api/admin/api-keys/${made.body.id}`, owner.token)).status).toBe(204);

    const created = await entry('api_key.created', (e) => e.target === made.body.id);
    expect(created).toMatchObject({
      actor_id: owner.userId,
      actor_email: owner.email,
      target: made.body.id,
      details: { name: 'Audited key', prefix: made.body.prefix, scopes: 'read', mode: 'live' },
    });
    fromClient(created);
    const revoked = await entry('api_key.revoked', (e) => e.target === made.body.id);
    expect(revoked).toMatchObject({ actor_id: owner.userId, target: made.body.id, details: { prefix: made.body.prefix } });
    fromClient(revoked);
    const all = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log?limit=500', { token: owner.token });
    expect(all.text).not.toContain(made.body.key);
  });

  it('members: invited, joined, role changed, removed, and an invitation withdrawn; never the code', async () => {
    const email = `joiner-${randomBytes(4).toString('hex')}@example.com`;
    const inv = await admin('POST', '/api/admin/members/invitations', owner.token, { json: { email, role: 'viewer' } });
    expect(inv.status, inv.text).toBe(201);
    // The mail goes out from the invitation's outbox event.
    const code = await invitationCode(email);
    const joined = await send(stack.gatewayUrl, 'POST', '/api/auth/invitations/accept', {
      headers,
      json: { code, name: 'Jo Iner', password: 'a long enough password' },
    });
    expect(joined.status, joined.text).toBe(200);
    const me = await send(stack.gatewayUrl, 'POST', '/api/auth/me', { token: joined.body.token as string });
    const memberId = me.body.user_id as string;
    expect((await admin('PATCH', `/api/admin/members/${memberId}`, owner.token, { json: { role: 'sender' } })).status).toBe(200);
    expect((await admin('DELETE', `/api/admin/members/${memberId}`, owner.token)).status).toBe(204);
    const gone = `withdrawn-${randomBytes(4).toString('hex')}@example.com`;
    const inv2 = await admin('POST', '/api/admin/members/invitations', owner.token, { json: { email: gone, role: 'admin' } });
    expect((await admin('DELETE', `/api/admin/members/invitations/${inv2.body.id}`, owner.token)).status).toBe(204);

    expect(await entry('member.invited', (e) => e.target === inv.body.id)).toMatchObject({
      actor_id: owner.userId,
      actor_email: owner.email,
      details: { email, role: 'viewer' },
    });
    const join = await entry('member.joined', (e) => e.target === memberId);
    expect(join).toMatchObject({ actor_id: memberId, actor_email: email, target: memberId, details: { role: 'viewer' } });
    fromClient(join);
    const role = await entry('member.role_changed', (e) => e.target === memberId);
    expect(role).toMatchObject({
      actor_id: owner.userId,
      target: memberId,
      details: { role: 'sender', previous_role: 'viewer' },
    });
    const removed = await entry('member.removed', (e) => e.target === memberId);
    expect(removed).toMatchObject({ actor_id: owner.userId, target: memberId, details: { email, previous_role: 'sender' } });
    const withdrawn = await entry('member.invitation_revoked', (e) => e.target === inv2.body.id);
    expect(withdrawn).toMatchObject({ actor_id: owner.userId, target: inv2.body.id, details: { email: gone } });
    for (const e of [role, removed, withdrawn]) fromClient(e);
    // The prefix filter finds all of them; no entry holds the code.
    const members = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log?action=member.', { token: owner.token });
    expect(new Set((members.body.events as Entry[]).map((e) => e.action))).toEqual(
      new Set(['member.invited', 'member.joined', 'member.role_changed', 'member.removed', 'member.invitation_revoked']),
    );
    expect(members.text).not.toContain(code);
  });

  it('settings, embedding origins and branding (and logo) changes, attributed to the admin who made them', async () => {
    const adm = await addMember(stack.gatewayUrl, owner.token, 'admin', 'audit-admin');
    const s = await admin('PATCH', '/api/admin/account/settings', adm.token, { json: { session_ttl_hours: 12 } });
    expect(s.status, s.text).toBe(200);
    const o = await admin('PUT', '/api/admin/account/embed-origins', adm.token, { json: { origins: ['https://embed.example'] } });
    expect(o.status, o.text).toBe(200);
    const b = await admin('PUT', '/api/admin/account/branding', adm.token, {
      json: { display_name: 'Audited Ltd', color: '#0b5cad' },
    });
    expect(b.status, b.text).toBe(200);
    const l = await admin('PUT', '/api/admin/account/branding/logo', adm.token, {
      raw: { data: logoPng(), contentType: 'image/png' },
    });
    expect(l.status, l.text).toBe(200);

    const settings = await entry('settings.changed', (e) => e.actor_id === adm.userId);
    expect(settings).toMatchObject({
      actor_id: adm.userId,
      actor_email: adm.email,
      target: owner.userId,
      details: { session_ttl_hours: '12' },
    });
    const origins = await entry('embed_origins.changed', (e) => e.actor_id === adm.userId);
    expect(origins).toMatchObject({ actor_id: adm.userId, details: { origins: 'https://embed.example', previous_origins: '' } });
    const named = await entry('branding.changed', (e) => e.details.changed === 'display_name color');
    expect(named).toMatchObject({
      actor_id: adm.userId,
      actor_email: adm.email,
      target: owner.userId,
      details: { changed: 'display_name color', display_name: 'Audited Ltd', color: '#0b5cad' },
    });
    const logo = await entry('branding.changed', (e) => e.details.changed === 'logo');
    expect(logo).toMatchObject({ actor_id: adm.userId, details: { logo_sha256: String(l.body.logo_url).split('/').pop() } });
    for (const e of [settings, origins, named, logo]) fromClient(e);
  });

  it('a transaction’s biometrics erased and the transaction deleted; exports of the transactions and of the log', async () => {
    const create = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: owner.apiKey,
      parts: [
        { name: 'signer_name', value: 'Del Eted' },
        { name: 'signer_email', value: `deleted-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ] as Part[],
    });
    expect(create.status, create.text).toBe(201);
    const id = create.body.id as number;
    // Ended (cancelled), so both may go.
    expect((await send(stack.gatewayUrl, 'POST', `/api/transactions/${id}/cancel`, { apiKey: owner.apiKey })).status).toBe(200);
    const erase = await send(stack.gatewayUrl, 'DELETE', `/api/transactions/${id}/biometrics`, { token: owner.token, headers });
    expect(erase.status, erase.text).toBe(204);
    const del = await send(stack.gatewayUrl, 'DELETE', `/api/transactions/${id}`, { token: owner.token, headers });
    expect(del.status, del.text).toBe(204);
    // Refused: nothing happened, nothing is recorded.
    expect((await send(stack.gatewayUrl, 'DELETE', `/api/transactions/${id}`, { token: owner.token, headers })).status).toBe(404);
    const exported = await send(stack.gatewayUrl, 'GET', '/api/transactions/export.csv', { token: owner.token, headers });
    expect(exported.status).toBe(200);

    const deleted = await entries('transaction.deleted');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      actor_id: owner.userId,
      actor_email: owner.email,
      target: String(id),
      details: { mode: 'live' },
    });
    const erased = await entry('transaction.biometrics_erased', (e) => e.target === String(id));
    expect(erased).toMatchObject({ actor_id: owner.userId, actor_email: owner.email, details: { reason: 'sender' } });
    const csvExport = await entry('transactions.exported', (e) => e.ip === ip);
    expect(csvExport).toMatchObject({ actor_id: owner.userId, details: { format: 'csv', mode: 'live' } });
    for (const e of [deleted[0]!, erased, csvExport]) fromClient(e);

    // The log's own export is recorded, with its format and filters; the CSV carries the new actions.
    const csv = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log/export?format=csv', { token: owner.token, headers });
    expect(csv.status).toBe(200);
    const actions = new Set(
      csv.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[2]),
    );
    for (const a of [
      'api_key.created',
      'api_key.revoked',
      'member.invited',
      'member.joined',
      'member.role_changed',
      'member.removed',
      'member.invitation_revoked',
      'settings.changed',
      'embed_origins.changed',
      'branding.changed',
      'transaction.biometrics_erased',
      'transaction.deleted',
      'transactions.exported',
    ])
      expect(actions, a).toContain(a);
    const json = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log/export?format=json&action=member.', {
      token: owner.token,
      headers,
    });
    expect(json.status).toBe(200);
    const logExports = await entries('audit_log.exported', 2);
    expect(logExports[0]).toMatchObject({ actor_id: owner.userId, details: { format: 'json', action: 'member.' } });
    expect(logExports[1]).toMatchObject({ details: { format: 'csv' } });
    fromClient(logExports[0]!);
  });

  it('senders and viewers cannot read or export the log; an admin can', async () => {
    const [sender, viewer, adm] = await Promise.all([
      addMember(stack.gatewayUrl, owner.token, 'sender', 'audit-sender'),
      addMember(stack.gatewayUrl, owner.token, 'viewer', 'audit-viewer'),
      addMember(stack.gatewayUrl, owner.token, 'admin', 'audit-reader'),
    ]);
    for (const m of [sender, viewer]) {
      const r = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log', { token: m.token });
      expect(r.status, m.role).toBe(403);
      expect(typeof r.body.detail).toBe('string');
      expect((await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log/export', { token: m.token })).status).toBe(403);
    }
    const r = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log?action=member.joined', { token: adm.token });
    expect(r.status).toBe(200);
    expect((r.body.events as Entry[]).some((e) => e.actor_email === sender.email)).toBe(true);
  });
});
