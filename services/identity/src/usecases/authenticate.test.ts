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
