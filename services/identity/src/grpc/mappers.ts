import type { identityV1 } from '@signet/proto';
import type { ApiKeyRecord } from '../store/api-key.repository.js';
import type { Principal } from '../usecases/authenticate.js';
import type { Profile } from '../usecases/get-profile.js';
import type { IssuedSession } from '../usecases/issue-session.js';

/** Timestamps go out as ISO 8601; an absent one as the empty string. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');

export function sessionOut(s: IssuedSession): identityV1.Session {
  return { token: s.token, email: s.email, orgName: s.orgName, userId: s.userId, expiresAt: s.expiresAt.toISOString() };
}

export function principalOut(p: Principal): identityV1.AuthenticateResponse {
  const who = { userId: p.userId, email: p.email, orgName: p.orgName };
  return p.method === 'session'
    ? { ...who, method: 'session', sessionId: p.sessionId, expiresAt: Math.floor(p.expiresAt.getTime() / 1000), mode: 'live' }
    : { ...who, method: 'api_key', sessionId: '', expiresAt: 0, mode: p.mode };
}

export function profileOut(p: Profile): identityV1.Profile {
  return {
    userId: p.userId,
    email: p.email,
    name: p.name,
    orgName: p.orgName,
    twoFactorEnabled: p.twoFactorEnabled,
    sessionTtlHours: p.sessionTtlHours,
    biometricRetentionDays: p.biometricRetentionDays,
    expiryDays: p.lifecycle.expiry_days,
    reminderFirstAfterHours: p.lifecycle.reminder_first_after_hours,
    reminderEveryHours: p.lifecycle.reminder_every_hours,
    reminderMax: p.lifecycle.reminder_max,
    embedOrigins: p.embedOrigins,
    createdAt: iso(p.createdAt),
  };
}

export function apiKeyOut(k: ApiKeyRecord): identityV1.ApiKey {
  return {
    id: k._id,
    name: k.name,
    prefix: k.prefix,
    createdAt: iso(k.created_at),
    lastUsedAt: iso(k.last_used_at),
    mode: k.mode ?? 'live',
  };
}
