import { fieldInvalid } from './errors.js';
import { isEmail } from './creation.js';
import { localeOf, type SignerLocale } from './locale.js';
import type { Signer, VerificationMode } from './transaction.js';

/**
 * The parties of a transaction (issue 18): who they are, what they do and in which order. Signers
 * and approvers go through the ceremony; a viewer only receives the result. Pure: creation
 * validates with it, routing decides with it.
 */
export const ROLES = ['signer', 'approver', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const VERIFICATIONS = ['face_match', 'liveness_only'] as const;
export type Verification = (typeof VERIFICATIONS)[number];
/**
 * What a capture must prove at least (issue 30): recorded (a single upload, or a live stream that
 * failed the real-time checks), live (the live protocol held), live+webauthn (and a WebAuthn step for
 * the same challenge). The ceremony refuses a capture below it before analysis.
 */
export const ASSURANCE_LEVELS = ['recorded', 'live', 'live+webauthn'] as const;
export type RequiredAssurance = (typeof ASSURANCE_LEVELS)[number];
/** What a signer must prove when the sender did not say. */
export const DEFAULT_ASSURANCE: RequiredAssurance = 'live';
/** Signers written before the requirement existed were never asked for one: any capture did. */
export const LEGACY_ASSURANCE: RequiredAssurance = 'recorded';

/**
 * The requirement as asked (empty: the default), checked; `field` names it in the error. WebAuthn
 * asked on its own raises live to live+webauthn (what the ceremony then enforces); live+webauthn
 * implies WebAuthn (see webauthnOf). `party`: how the error names the party (none: the form's own field).
 */
export function requiredAssuranceOf(raw: string, webauthn: boolean, party?: string): RequiredAssurance {
  const asked = (raw.trim() || DEFAULT_ASSURANCE) as RequiredAssurance;
  if (!ASSURANCE_LEVELS.includes(asked)) {
    const levels = `must be one of ${ASSURANCE_LEVELS.join(', ')}`;
    throw party ? fieldInvalid(party, `required_assurance ${levels}`) : fieldInvalid('required_assurance', levels);
  }
  return webauthn && asked === 'live' ? 'live+webauthn' : asked;
}
export const webauthnOf = (webauthn: boolean, required: RequiredAssurance) => webauthn || required === 'live+webauthn';

/** Parties of one transaction, viewers included. */
export const MAX_PARTIES = 10;
/** The highest routing order. */
export const MAX_ORDER = 10;

// Control characters (C0 and DEL) have no place in names shown in emails and certificates.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A party as the sender listed it (the `signers` list), before checking. */
export type PartySpec = {
  name: string;
  email: string;
  role: string;
  order: number;
  verification: string;
  webauthn: boolean;
  /** Empty: the default (live). */
  requiredAssurance?: string;
  /** The party's language (domain/locale.ts); empty: not chosen. */
  locale?: string;
};

/** A checked party. `photo`: the index of its reference photo among the uploaded ones (face_match only). */
export type Party = {
  name: string;
  email: string;
  role: Role;
  order: number;
  verification: Verification | 'none';
  webauthn: boolean;
  /** The lowest assurance a capture may prove (a viewer has no ceremony: absent). */
  required_assurance?: RequiredAssurance;
  /** The language of the party's page and mails; absent: not chosen. */
  locale?: SignerLocale;
};

/** How a party is named in an error: its position in the list and its email when it has one. */
const who = (i: number, email: string) => `signers[${i}]${email ? ` (${email.slice(0, 100)})` : ''}`;

/**
 * Checks the `signers` list; `photos` are the indexes a reference photo was uploaded for. Every
 * failure names the signer. face_match (the default) needs a photo; liveness_only must not have one;
 * a viewer has no verification, no photo and no WebAuthn. Orders must be 1..10 without gaps.
 */
export function validateParties(raw: PartySpec[], photos: ReadonlySet<number>): Party[] {
  if (raw.length === 0) throw fieldInvalid('signers', 'must list at least one signer');
  if (raw.length > MAX_PARTIES) throw fieldInvalid('signers', `at most ${MAX_PARTIES} parties`);
  for (const i of photos) if (i < 0 || i >= raw.length) throw fieldInvalid(`signer_photo_${i}`, `there is no signers[${i}]`);
  const seen = new Set<string>();
  const parties = raw.map((p, i): Party => {
    const email = p.email.trim();
    const name = p.name.trim();
    if (!email) throw fieldInvalid(who(i, ''), 'email is required');
    if (!isEmail(email)) throw fieldInvalid(who(i, email), 'email is not an email address');
    if (seen.has(email.toLowerCase())) throw fieldInvalid(who(i, email), 'each party must have a different email address');
    seen.add(email.toLowerCase());
    if (!name) throw fieldInvalid(who(i, email), 'name is required');
    if (name.length > 200) throw fieldInvalid(who(i, email), 'name must be at most 200 characters');
    if (CONTROL.test(name)) throw fieldInvalid(who(i, email), 'name must not contain control characters');
    const locale = localeOf(p.locale, `${who(i, email)} locale`);
    const lang = locale ? { locale } : {};
    const role = (p.role.trim() || 'signer') as Role;
    if (!ROLES.includes(role)) throw fieldInvalid(who(i, email), `role must be one of ${ROLES.join(', ')}`);
    if (!Number.isInteger(p.order) || p.order < 1 || p.order > MAX_ORDER)
      throw fieldInvalid(who(i, email), `order must be an integer from 1 to ${MAX_ORDER}`);
    if (role === 'viewer') {
      if (p.verification.trim()) throw fieldInvalid(who(i, email), 'a viewer has no verification');
      if (p.webauthn) throw fieldInvalid(who(i, email), 'a viewer has no WebAuthn step');
      if (p.requiredAssurance?.trim()) throw fieldInvalid(who(i, email), 'a viewer has no ceremony: no required_assurance');
      if (photos.has(i)) throw fieldInvalid(who(i, email), 'a viewer has no reference photo');
      return { name, email, role, order: p.order, verification: 'none', webauthn: false, ...lang };
    }
    const verification = (p.verification.trim() || 'face_match') as Verification;
    if (!VERIFICATIONS.includes(verification))
      throw fieldInvalid(who(i, email), `verification must be one of ${VERIFICATIONS.join(', ')}`);
    if (verification === 'face_match' && !photos.has(i))
      throw fieldInvalid(who(i, email), `face_match needs a reference photo (part signer_photo_${i})`);
    if (verification === 'liveness_only' && photos.has(i))
      throw fieldInvalid(who(i, email), 'liveness_only takes no reference photo (use face_match)');
    const required = requiredAssuranceOf(p.requiredAssurance ?? '', p.webauthn, who(i, email));
    return {
      name,
      email,
      role,
      order: p.order,
      verification,
      webauthn: webauthnOf(p.webauthn, required),
      required_assurance: required,
      ...lang,
    };
  });
  const ceremony = parties.filter((p) => p.role !== 'viewer');
  if (ceremony.length === 0) throw fieldInvalid('signers', 'must list at least one signer or approver');
  const orders = [...new Set(ceremony.map((p) => p.order))].sort((a, b) => a - b);
  orders.forEach((o, k) => {
    if (o !== k + 1) throw fieldInvalid('signers', `orders must run 1, 2, … without gaps (order ${k + 1} is missing)`);
  });
  return parties;
}

/** The spec's one-signer form as parties: the first signer matched against the photo, the others liveness-only, all at once. */
export function legacyParties(f: {
  signer_name: string;
  signer_email: string;
  signer_emails: string[];
  /** The form's one required_assurance, for every signer of it (checked: requiredAssuranceOf). */
  required_assurance: RequiredAssurance;
  /** The form's one language, for every signer of it (checked: localeOf). */
  locale?: SignerLocale;
}): Party[] {
  const required = f.required_assurance;
  const lang = f.locale ? { locale: f.locale } : {};
  const webauthn = webauthnOf(false, required);
  return [
    {
      name: f.signer_name,
      email: f.signer_email,
      role: 'signer',
      order: 1,
      verification: 'face_match',
      webauthn,
      required_assurance: required,
      ...lang,
    },
    ...f.signer_emails.map((email): Party => ({
      name: email,
      email,
      role: 'signer',
      order: 1,
      verification: 'liveness_only',
      webauthn,
      required_assurance: required,
      ...lang,
    })),
  ];
}

export const modeOf = (v: Verification): VerificationMode => (v === 'face_match' ? 'biometric' : 'liveness');

// ---- routing

type Routed = { index: number; state: string; order?: number };
/** Signer states that end the routing: failed, and declined where the lifecycle adds it. */
const STOPPED = new Set(['failed', 'declined']);
const orderOf = (s: Routed) => s.order ?? 1;

/**
 * The order whose signers may sign now: the lowest order with a signer who has not passed. Null
 * when routing has stopped (a signer failed) or everyone has passed.
 */
export function currentOrder(signers: Routed[]): number | null {
  if (signers.some((s) => STOPPED.has(s.state))) return null;
  const open = signers.filter((s) => s.state !== 'passed');
  return open.length ? Math.min(...open.map(orderOf)) : null;
}

/** Whether a signer's link works now: their order has been reached (earlier orders all passed) and routing has not stopped. */
export function isReleased(signers: Routed[], index: number): boolean {
  const s = signers.find((x) => x.index === index);
  if (!s) return false;
  if (s.state !== 'created') return true;
  const cur = currentOrder(signers);
  return cur !== null && orderOf(s) <= cur;
}

/** The signers to invite when the transaction is created: those of the first order. */
export function initialInvites(signers: Routed[]): number[] {
  const cur = currentOrder(signers);
  return cur === null ? [] : signers.filter((s) => orderOf(s) === cur).map((s) => s.index);
}

/**
 * The signers a change releases: when it completes an order (every signer of it passed, none
 * failed), those of the next order, who get their link now. Nothing after a failure.
 */
export function releasedBy(before: Routed[], after: Routed[]): number[] {
  const was = currentOrder(before);
  const now = currentOrder(after);
  if (now === null || was === now) return [];
  return after.filter((s) => orderOf(s) === now && s.state === 'created').map((s) => s.index);
}

// ---- what a signer's certificate entry says

/** A signer's reference photo: their own, or for the first biometric signer of an older record the record's. */
export function signerReference(
  rec: { reference_key: string; reference_sha256: string },
  s: Pick<Signer, 'index' | 'verification_mode' | 'reference_key' | 'reference_sha256'>,
): { key: string; sha256: string } {
  if (s.reference_key) return { key: s.reference_key, sha256: s.reference_sha256 ?? '' };
  if (s.index === 0 && s.verification_mode === 'biometric') return { key: rec.reference_key, sha256: rec.reference_sha256 };
  return { key: '', sha256: '' };
}

/**
 * The verification mode and the checks a passed signer is certified with: liveness always,
 * face_match when matched against their own photo, webauthn when that step was verified for the
 * passing capture (the mode then carries +webauthn, as the ceremony writes it).
 */
export function certifiedChecks(s: Pick<Signer, 'verification_mode' | 'webauthn_verified'>): {
  verificationMode: string;
  checks: string[];
} {
  const checks = ['liveness', ...(s.verification_mode === 'biometric' ? ['face_match'] : [])];
  if (s.webauthn_verified) checks.push('webauthn');
  return { verificationMode: `${s.verification_mode}${s.webauthn_verified ? '+webauthn' : ''}`, checks };
}
