import { describe, expect, it } from 'vitest';
import { newApiKey } from '../domain/secrets.js';
import { createSessions } from '../domain/session.js';
import type { ApiKeyRecord } from '../store/api-key.repository.js';
import { fakeMetrics, fakeUsers, userRecord } from '../../test/fakes.js';
import { authenticateApiKey, authenticateSession } from './authenticate.js';

const sessions = createSessions('j'.repeat(40));

describe('authenticateSession', () => {
  it('accepts a session issued under the current password version only', async () => {
    const users = fakeUsers([userRecord({ password_version: 2 })]);
    const m = fakeMetrics();
    const deps = { users, sessions, metrics: m.metrics };
    const current = await sessions.issue('u1', 2, 1);
    await expect(authenticateSession(deps, current.token)).resolves.toMatchObject({
      method: 'session',
      userId: 'u1',
      sessionId: current.claims.sessionId,
    });
    const older = await sessions.issue('u1', 1, 1);
    await expect(authenticateSession(deps, older.token)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(m.counted('authentications', { method: 'session', result: 'rejected' })).toBe(1);
  });
});

describe('authenticateApiKey', () => {
  it('needs the whole key: the right prefix with another secret is refused, and a used key is touched', async () => {
    const k = newApiKey();
    const rec: ApiKeyRecord = {
      _id: 'k1',
      user_id: 'u1',
      name: 'ci',
      prefix: k.prefix,
      hash: k.hash,
      created_at: new Date(0),
      last_used_at: null,
      revoked_at: null,
    };
    const touched: string[] = [];
    const apiKeys = {
      activeByPrefix: async (p: string) => (p === rec.prefix ? rec : null),
      touch: async (id: string) => void touched.push(id),
    };
    const m = fakeMetrics();
    const deps = { apiKeys, users: fakeUsers([userRecord()]), metrics: m.metrics };
    const forged = `${k.prefix}${'A'.repeat(k.key.length - k.prefix.length)}`;
    await expect(authenticateApiKey(deps, forged)).rejects.toMatchObject({ message: 'invalid API key' });
    expect(touched).toEqual([]);
    await expect(authenticateApiKey(deps, k.key)).resolves.toEqual({
      method: 'api_key',
      userId: 'u1',
      email: 'ada@example.test',
      orgName: 'Engines',
      mode: 'live',
      ownerId: 'u1',
      role: 'owner',
      scopes: ['read', 'write', 'admin'],
      expiresAt: null,
    });
    expect(touched).toEqual(['k1']);
    expect(m.counted('authentications', { method: 'api_key', result: 'rejected' })).toBe(1);
  });

  it('gives a test key its mode; a stored key without a mode (made before test mode) is live', async () => {
    const t = newApiKey('test');
    const rec: ApiKeyRecord = {
      _id: 'k2',
      user_id: 'u1',
      name: 'sandbox',
      prefix: t.prefix,
      hash: t.hash,
      created_at: new Date(0),
      last_used_at: null,
      revoked_at: null,
      mode: 'test',
    };
    const apiKeys = { activeByPrefix: async (p: string) => (p === rec.prefix ? rec : null), touch: async () => undefined };
    const deps = { apiKeys, users: fakeUsers([userRecord()]), metrics: fakeMetrics().metrics };
    await expect(authenticateApiKey(deps, t.key)).resolves.toMatchObject({ method: 'api_key', mode: 'test' });
    const { mode: _mode, ...old } = rec;
    const legacy = { ...deps, apiKeys: { ...apiKeys, activeByPrefix: async (p: string) => (p === rec.prefix ? old : null) } };
    await expect(authenticateApiKey(legacy, t.key)).resolves.toMatchObject({ mode: 'live' });
  });
});

describe('members, scopes and expiry (issue 34 items 1 and 2)', () => {
  const keyOf = (over: Partial<ApiKeyRecord> = {}) => {
    const k = newApiKey();
    const rec: ApiKeyRecord = {
      _id: 'k3',
      user_id: 'm1',
      name: 'ci',
      prefix: k.prefix,
      hash: k.hash,
      created_at: new Date(0),
      last_used_at: null,
      revoked_at: null,
      ...over,
    };
    const apiKeys = { activeByPrefix: async (p: string) => (p === rec.prefix ? rec : null), touch: async () => undefined };
    return { key: k.key, apiKeys };
  };
  const member = (role: string) =>
    fakeUsers([userRecord(), userRecord({ _id: 'm1', email: 'm@example.test', org_id: 'u1', role })]);

  it('a member’s key acts for the organisation, at most as its scopes and the member’s role now', async () => {
    const { key, apiKeys } = keyOf({ scopes: ['read', 'write', 'admin'] });
    const deps = { apiKeys, users: member('sender'), metrics: fakeMetrics().metrics };
    // Made when the member was an admin; they are a sender now: the key is a sender's.
    await expect(authenticateApiKey(deps, key)).resolves.toMatchObject({ userId: 'm1', ownerId: 'u1', role: 'sender' });
    const read = keyOf({ scopes: ['read'] });
    await expect(authenticateApiKey({ ...deps, apiKeys: read.apiKeys }, read.key)).resolves.toMatchObject({ role: 'viewer' });
  });

  it('refuses an expired key, and gives an expiring one its expiry', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const later = keyOf({ expires_at: new Date(now + 1000) });
    const deps = { apiKeys: later.apiKeys, users: member('admin'), metrics: fakeMetrics().metrics, now: () => now };
    await expect(authenticateApiKey(deps, later.key)).resolves.toMatchObject({ expiresAt: new Date(now + 1000) });
    await expect(authenticateApiKey({ ...deps, now: () => now + 1000 }, later.key)).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });

  it('a removed member’s key and session resolve to no one', async () => {
    const { key, apiKeys } = keyOf();
    const deps = { apiKeys, users: fakeUsers([userRecord()]), metrics: fakeMetrics().metrics };
    await expect(authenticateApiKey(deps, key)).rejects.toMatchObject({ kind: 'unauthenticated' });
    const s = await sessions.issue('m1', 0, 1);
    await expect(
      authenticateSession({ users: fakeUsers([userRecord()]), sessions, metrics: fakeMetrics().metrics }, s.token),
    ).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });

  it('a member’s session carries the organisation and the role', async () => {
    const s = await sessions.issue('m1', 0, 1);
    await expect(
      authenticateSession({ users: member('viewer'), sessions, metrics: fakeMetrics().metrics }, s.token),
    ).resolves.toMatchObject({
      userId: 'm1',
      ownerId: 'u1',
      role: 'viewer',
    });
  });
});
