import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'signet-identity';
const AUDIENCE = 'signet';

export type SessionClaims = {
  userId: string;
  sessionId: string;
  /** The user's password version when the session was made; a password change bumps it. */
  passwordVersion: number;
  expiresAt: Date;
};

/** Session JWTs: HS256 with the configured key; `sid` is the session id CSRF tokens bind to, `pv` the password version. */
export function createSessions(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(
      userId: string,
      passwordVersion: number,
      ttlHours: number,
      now = new Date(),
    ): Promise<{ token: string; claims: SessionClaims }> {
      const sessionId = randomBytes(16).toString('base64url');
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + ttlHours * 3600;
      const token = await new SignJWT({ sid: sessionId, pv: passwordVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, claims: { userId, sessionId, passwordVersion, expiresAt: new Date(exp * 1000) } };
    },
    /** The claims of a valid, unexpired token, or null. */
    async verify(token: string): Promise<SessionClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
        if (
          typeof payload.sub !== 'string' ||
          typeof payload.sid !== 'string' ||
          typeof payload.pv !== 'number' ||
          typeof payload.exp !== 'number'
        )
          return null;
        return {
          userId: payload.sub,
          sessionId: payload.sid,
          passwordVersion: payload.pv,
          expiresAt: new Date(payload.exp * 1000),
        };
      } catch {
        return null;
      }
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;

/** The session length of an account: its own setting, or the service default for accounts that have none. */
export const sessionTtlHours = (stored: number | null | undefined, defaultHours: number) => stored || defaultHours;
