import { describe, expect, it } from 'vitest';
import { checkScopes, keyRole, mayManage, orgOf, roleOf, scopesOfRole } from './roles.js';

describe('roles and scopes', () => {
  it('a user made before roles is the owner of their own organisation', () => {
    expect(roleOf({})).toBe('owner');
    expect(roleOf({ role: 'nonsense' })).toBe('owner');
    expect(orgOf({ _id: 'u1' })).toBe('u1');
    expect(orgOf({ _id: 'm1', org_id: 'u1' })).toBe('u1');
  });

  it('a key never acts above its member’s role, nor above its highest scope', () => {
    expect(keyRole('sender', ['admin'])).toBe('sender');
    expect(keyRole('owner', ['admin'])).toBe('admin');
    expect(keyRole('admin', ['read'])).toBe('viewer');
    expect(keyRole('admin', ['read', 'write'])).toBe('sender');
    expect(keyRole('viewer', [])).toBe('viewer');
  });

  it('refuses a scope above the role or unknown, and defaults to the role’s scopes', () => {
    expect(checkScopes([], 'sender')).toEqual(['read', 'write']);
    expect(scopesOfRole('viewer')).toEqual(['read']);
    expect(checkScopes(['read', 'read'], 'viewer')).toEqual(['read']);
    expect(() => checkScopes(['write'], 'viewer')).toThrow(/above your role/);
    expect(() => checkScopes(['root'], 'owner')).toThrow(/unknown scope/);
  });

  it('admins manage everyone but owners; owners manage everyone', () => {
    expect(mayManage('admin', 'admin')).toBe(true);
    expect(mayManage('admin', 'owner')).toBe(false);
    expect(mayManage('sender', 'viewer')).toBe(false);
    expect(mayManage('owner', 'owner')).toBe(true);
  });
});
