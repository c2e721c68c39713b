/**
 * In-memory stand-ins for the identity use cases' dependencies (unit tests, no infrastructure).
 * They keep the conditional-update semantics of the real repositories: an update that names a
 * code hash or a password version only applies while the record still carries it.
 */
import type { SignupRecord } from '../src/store/signup.repository.js';
import type { UserRecord } from '../src/store/user.repository.js';
import type { IdentityMetrics } from '../src/metrics.js';

/** Starts at the real time (session JWTs are checked against it) in whole seconds (their resolution), then moves only when told. */
export function fakeClock(start = Math.floor(Date.now() / 1000) * 1000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
}

/** Metrics that remember how often each name+labels was counted: `counted('codes', {result: 'wrong'})`. */
export function fakeMetrics() {
  const seen: { name: string; labels: Record<string, string> }[] = [];
  const counter = (name: string) => ({ inc: (labels: Record<string, string>) => void seen.push({ name, labels }) });
  const metrics = Object.fromEntries(
    ['logins', 'signups', 'codes', 'mails', 'apiKeys', 'authentications', 'totp', 'settings', 'members'].map((n) => [
      n,
      counter(n),
    ]),
  ) as unknown as IdentityMetrics;
  const counted = (name: string, labels: Record<string, string>) =>
    seen.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).length;
  return { metrics, counted };
}

export function userRecord(over: Partial<UserRecord> = {}): UserRecord {
  return {
    _id: 'u1',
    email: 'ada@example.test',
    name: 'Ada',
    org_name: 'Engines',
    password_hash: 'unused',
    password_version: 0,
    session_ttl_hours: 24,
    totp_enabled: false,
    totp_secret: null,
    totp_pending_secret: null,
    totp_last_step: 0,
    reset_code_hash: null,
    reset_code_expires_at: null,
    reset_code_attempts: 0,
    created_at: new Date(0),
    ...over,
  };
}

export function fakeUsers(initial: UserRecord[] = []) {
  const byIdMap = new Map(initial.map((u) => [u._id, { ...u }]));
  const find = (id: string) => byIdMap.get(id) ?? null;
  return {
    all: byIdMap,
    byId: async (id: string) => (find(id) ? { ...find(id)! } : null),
    byEmail: async (email: string) => {
      const u = [...byIdMap.values()].find((x) => x.email === email);
      return u ? { ...u } : null;
    },
    async useTotpStep(id: string, step: number) {
      const u = find(id);
      if (!u || !(u.totp_last_step < step)) return false;
      u.totp_last_step = step;
      return true;
    },
    async setResetCode(id: string, hash: string, expiresAt: Date) {
      const u = find(id);
      if (u) Object.assign(u, { reset_code_hash: hash, reset_code_expires_at: expiresAt, reset_code_attempts: 0 });
    },
    async countWrongResetCode(id: string, hash: string) {
      const u = find(id);
      if (!u || u.reset_code_hash !== hash) return null;
      return ++u.reset_code_attempts;
    },
    async burnResetCode(id: string, hash: string) {
      const u = find(id);
      if (u && u.reset_code_hash === hash) Object.assign(u, { reset_code_hash: null, reset_code_expires_at: null });
    },
    async setPassword(id: string, hash: string, expectVersion: number) {
      const u = find(id);
      if (!u || u.password_version !== expectVersion) return null;
      Object.assign(u, { password_hash: hash, reset_code_hash: null, reset_code_expires_at: null, reset_code_attempts: 0 });
      u.password_version += 1;
      return { ...u };
    },
  };
}

export function fakeSignups(initial: SignupRecord[] = []) {
  const docs = new Map(initial.map((s) => [s._id, { ...s }]));
  return {
    all: docs,
    byEmail: async (email: string) => (docs.has(email) ? { ...docs.get(email)! } : null),
    async countWrongCode(email: string, hash: string) {
      const s = docs.get(email);
      if (!s || s.code_hash !== hash) return null;
      return ++s.code_attempts;
    },
    async burnCode(email: string, hash: string) {
      const s = docs.get(email);
      if (s && s.code_hash === hash) Object.assign(s, { code_hash: null, code_expires_at: null });
    },
    async markVerified(email: string, codeHash: string, tokenHash: string, tokenExpiresAt: Date) {
      const s = docs.get(email);
      if (!s || s.code_hash !== codeHash) return false;
      Object.assign(s, {
        code_hash: null,
        code_expires_at: null,
        verified_at: new Date(),
        onboarding_token_hash: tokenHash,
        onboarding_expires_at: tokenExpiresAt,
      });
      return true;
    },
  };
}

/** Login challenges as the Redis repository keeps them (expiry by TTL is Redis's, not modelled). */
export function fakeMfaChallenges() {
  const docs = new Map<string, { userId: string; attempts: number; ttlSeconds: number }>();
  return {
    all: docs,
    async create(id: string, userId: string, ttlSeconds: number) {
      docs.set(id, { userId, attempts: 0, ttlSeconds });
    },
    userId: async (id: string) => docs.get(id)?.userId ?? null,
    async countWrongCode(id: string) {
      const d = docs.get(id) ?? { userId: '', attempts: 0, ttlSeconds: -1 };
      docs.set(id, d);
      return ++d.attempts;
    },
    remove: async (id: string) => docs.delete(id),
  };
}

/** A password hasher without argon2's cost (the real one is tested in domain/secrets.test.ts). */
export const fakePasswords = {
  hash: async (password: string) => `fake$${password}`,
  verify: async (stored: string | null | undefined, password: string) => stored === `fake$${password}`,
};
