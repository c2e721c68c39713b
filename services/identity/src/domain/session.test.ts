import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createSessions } from './session.js';

const SECRET = 'x'.repeat(40);

describe('session JWT', () => {
  it('issues HS256 tokens that verify with the same key only', async () => {
    const s = createSessions(SECRET);
    const { token, claims } = await s.issue('u1', 3, 24);
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    expect(await s.verify(token)).toEqual(claims);
    expect(claims.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await createSessions('y'.repeat(40)).verify(token)).toBeNull();
    expect(await s.verify(`${token}x`)).toBeNull();
  });

  it('refuses expired tokens and tokens with another algorithm', async () => {
    const s = createSessions(SECRET);
    const { token } = await s.issue('u1', 0, 1, new Date(Date.now() - 2 * 3600_000));
    expect(await s.verify(token)).toBeNull();
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'u1', sid: 's', pv: 0 })).toString('base64url')}.`;
    expect(await s.verify(none)).toBeNull();
    const hs512 = await new SignJWT({ sid: 's', pv: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('u1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await s.verify(hs512)).toBeNull();
  });
});
