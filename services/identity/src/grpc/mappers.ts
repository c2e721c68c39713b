import type { identityV1 } from '@signet/proto';
import type { ApiKeyRecord } from '../store/api-key.repository.js';
import type { InvitationRecord } from '../store/invitation.repository.js';
import type { UserRecord } from '../store/user.repository.js';
import { roleOf } from '../domain/roles.js';
import type { Principal } from '../usecases/authenticate.js';
import type { Profile } from '../usecases/get-profile.js';
import type { IssuedSession } from '../usecases/issue-session.js';

/** Timestamps go out as ISO 8601; an absent one as the empty string. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');

export function sessionOut(s: IssuedSession): identityV1.Session {
  return { token: s.token, email: s.email, orgName: s.orgName, userId: s.userId, expiresAt: s.expiresAt.toISOString() };
}

export function principalOut(p: Principal): identityV1.AuthenticateResponse {
  const who = { userId: p.userId, email: p.email, orgName: p.orgName, ownerId: p.ownerId, role: p.role };
  const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);
  return p.method === 'session'
    ? { ...who, method: 'session', sessionId: p.sessionId, expiresAt: unix(p.expiresAt), mode: 'live', scopes: [] }
    : { ...who, method: 'api_key', sessionId: '', expiresAt: unix(p.expiresAt), mode: p.mode, scopes: p.scopes };
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
    ownerId: p.ownerId,
    role: p.role,
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
    scopes: k.scopes ?? [],
    expiresAt: iso(k.expires_at),
    createdBy: k.user_id,
  };
}

export function memberOut(u: UserRecord): identityV1.Member {
  return { userId: u._id, email: u.email, name: u.name, role: roleOf(u), joinedAt: iso(u.created_at) };
}

export function invitationOut(i: InvitationRecord): identityV1.Invitation {
  return {
    id: i._id,
    email: i.email,
    role: i.role,
    expiresAt: iso(i.expires_at),
    invitedBy: i.invited_by,
    createdAt: iso(i.created_at),
  };
}
