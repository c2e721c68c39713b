import { describe, expect, it } from 'vitest';
import { DomainError } from '@signet/kit';
import type { UserRecord } from '../store/user.repository.js';
import { setEmbedOrigins } from './set-embed-origins.js';

function setup() {
  const user = {
    _id: 'u1',
    email: 'a@example.test',
    name: 'A',
    org_name: 'O',
    session_ttl_hours: 24,
    totp_enabled: false,
    created_at: new Date(0),
  } as UserRecord;
  const changed: string[] = [];
  let writes = 0;
  const deps = {
    defaultSessionTtlHours: 24,
    metrics: { settings: { inc: (l: { setting: string }) => void changed.push(l.setting) } } as never,
    logger: { info: () => undefined, warn: () => undefined } as never,
    users: {
      byId: async (id: string) => (id === user._id ? { ...user } : null),
      setEmbedOrigins: async (id: string, origins: string[]) => {
        if (id !== user._id) return undefined;
        writes++;
        const previous = user.embed_origins ?? [];
        user.embed_origins = origins;
        return { previous };
      },
    },
  };
  return { deps, user, changed, writes: () => writes };
}

describe('setEmbedOrigins', () => {
  it('starts empty, stores the checked list without duplicates, counts a change once', async () => {
    const t = setup();
    const p = await setEmbedOrigins(t.deps, 'u1', ['https://a.example', 'http://127.0.0.1:5173', 'https://a.example']);
    expect(p.embedOrigins).toEqual(['https://a.example', 'http://127.0.0.1:5173']);
    expect(t.changed).toEqual(['embed_origins']);
    await setEmbedOrigins(t.deps, 'u1', ['https://a.example', 'http://127.0.0.1:5173']);
    expect(t.changed).toEqual(['embed_origins']);
    expect((await setEmbedOrigins(t.deps, 'u1', [])).embedOrigins).toEqual([]);
    expect(t.changed).toEqual(['embed_origins', 'embed_origins']);
  });

  it('refuses a bad origin as INVALID_ARGUMENT naming it, and writes nothing', async () => {
    const t = setup();
    for (const bad of [['*'], ['https://a.example', 'https://b.example/'], ['http://a.example'], ['https://*.a.example']]) {
      const err = await setEmbedOrigins(t.deps, 'u1', bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).kind).toBe('invalid_argument');
      expect((err as DomainError).message).toMatch(/^origins\[\d\]: must/);
    }
    expect(t.writes()).toBe(0);
  });

  it('an unknown account is not found', async () => {
    const t = setup();
    const err = await setEmbedOrigins(t.deps, 'nobody', ['https://a.example']).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('not_found');
  });
});
