import { forbidden, invalid } from '@signet/kit';

/**
 * Roles of an organisation's members, lowest first (issue 34 item 1): a viewer reads; a sender also
 * creates and acts on transactions, templates and bulk sends; an admin also manages keys, webhooks,
 * members (not owners), settings and branding; an owner also billing and ownership.
 */
export const ROLES = ['viewer', 'sender', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** API key scopes and the role each stands for: a key acts at most as its highest scope and its member's role. */
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];
const SCOPE_ROLE: Record<Scope, Role> = { read: 'viewer', write: 'sender', admin: 'admin' };

export const rank = (r: Role): number => ROLES.indexOf(r);
export const isRole = (r: string): r is Role => (ROLES as readonly string[]).includes(r);
export const atLeast = (r: Role, min: Role): boolean => rank(r) >= rank(min);

/** A stored role; records made before roles existed are their own organisation's owner. */
export const roleOf = (u: { role?: string | null }): Role => (u.role && isRole(u.role) ? u.role : 'owner');
/** The organisation of a user: its owner's id (an owner's is its own). */
export const orgOf = (u: { _id: string; org_id?: string | null }): string => u.org_id || u._id;

/** The scopes a role may hold: everything up to its own level. */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPES.filter((s) => atLeast(role, SCOPE_ROLE[s]));
}

/** What a key may do: the highest role its scopes stand for, never above its member's role now. */
export function keyRole(memberRole: Role, scopes: readonly string[]): Role {
  const fromScopes = scopes
    .filter((s): s is Scope => (SCOPES as readonly string[]).includes(s))
    .map((s) => SCOPE_ROLE[s])
    .reduce<Role | null>((a, b) => (a === null || rank(b) > rank(a) ? b : a), null);
  if (fromScopes === null) return memberRole;
  return rank(fromScopes) < rank(memberRole) ? fromScopes : memberRole;
}

/**
 * The scopes a new key asks for, checked: known, no repeats, none above the member's role (a key can
 * never exceed its member). Empty: the scopes of the member's role.
 */
export function checkScopes(raw: readonly string[], memberRole: Role): Scope[] {
  if (raw.length === 0) return scopesOfRole(memberRole);
  const out: Scope[] = [];
  for (const s of raw) {
    if (!(SCOPES as readonly string[]).includes(s))
      throw invalid(`scopes: unknown scope "${s.slice(0, 32)}"; use read, write or admin`);
    if (!out.includes(s as Scope)) out.push(s as Scope);
  }
  const above = out.find((s) => !atLeast(memberRole, SCOPE_ROLE[s]));
  if (above) throw forbidden(`scopes: ${above} is above your role (${memberRole})`);
  return out;
}

/** A role named in a request, checked. */
export function checkRole(raw: string): Role {
  if (!isRole(raw)) throw invalid('role must be one of owner, admin, sender, viewer');
  return raw;
}

/**
 * Whether an actor may give or take a role: admins manage senders, viewers and other admins
 * (never owners, nor make one); owners manage everyone.
 */
export function mayManage(actor: Role, target: Role): boolean {
  if (actor === 'owner') return true;
  return actor === 'admin' && target !== 'owner';
}
