import type { LifecycleRaw } from './lifecycle.js';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { ATTESTATION_TYPES, MAX_ADDITIONAL_SIGNERS, type AttestationType } from './transaction.js';
import { fieldInvalid } from './errors.js';
import type { PhotoSlot } from './photos.js';
import { parseFieldSpecs, type FieldSpec } from './form-fields.js';
import { localeOf } from './locale.js';
import { legacyParties, requiredAssuranceOf, validateParties, type Party, type PartySpec } from './signers.js';

export const MAX_DOCUMENT_BYTES = 200 * 1024 * 1024;
export const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;
export const PDF_MAGIC = Buffer.from('%PDF-');
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Control characters (C0 and DEL) have no place in names shown in emails and certificates.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g;

// Deliberately simple: one @, no spaces, a dotted domain. The mail server is the final judge.
const EMAIL =
  /^[^\s@<>(),;:"\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const isEmail = (s: string) => s.length <= 254 && EMAIL.test(s);

export type CreationFields = {
  /** Every party in the order listed (signers, approvers, viewers); the one-signer form as parties. */
  parties: Party[];
  attestation_type: AttestationType;
  document_name: string;
  /** The fields placed on the document (issue 33), checked without it; empty: none. */
  form: FieldSpec[];
};

export type RawCreationFields = {
  signerName: string;
  signerEmail: string;
  signerEmails: string[];
  attestationType: string;
  documentName: string;
  /** The `signers` list (issue 18); empty for the spec's one-signer form. */
  signers: PartySpec[];
  /** Expiry and reminder schedule as asked (domain/lifecycle.ts); absent: the defaults. */
  lifecycle?: LifecycleRaw;
  /** The one-signer form's required assurance for its signers; empty or absent: live. */
  requiredAssurance?: string;
  /** The fields to place on the document: a JSON array as the sender gave it; empty or absent: none. */
  formFields?: string;
  /** The one-signer form's language for its signers; empty or absent: not chosen. */
  signerLocale?: string;
};

/**
 * Checks and normalises the text fields; each failure names its field (a party's failure names the
 * signer). `photos`: which reference photos arrived. The one-signer form (signer_name, signer_email,
 * signer_emails and `reference`) and the `signers` list (with `signer_photo_<index>`) do not mix.
 */
export function validateFields(raw: RawCreationFields, photos: ReadonlySet<PhotoSlot>): CreationFields {
  const rest = validatePartiesOf(raw, photos);
  return { ...rest, form: parseFieldSpecs(parseJson(raw.formFields), rest.parties) };
}

function parseJson(text: string | undefined): unknown {
  if (!text?.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fieldInvalid('fields', 'is not valid JSON');
  }
}

function validatePartiesOf(raw: RawCreationFields, photos: ReadonlySet<PhotoSlot>): Omit<CreationFields, 'form'> {
  const type = raw.attestationType.trim() || 'signature';
  const common = () => {
    if (!(ATTESTATION_TYPES as readonly string[]).includes(type))
      throw fieldInvalid('attestation_type', `must be one of ${ATTESTATION_TYPES.join(', ')}`);
    const documentName = (raw.documentName.trim() || 'document.pdf').replace(CONTROL_ALL, '').slice(0, 200);
    return { attestation_type: type as AttestationType, document_name: documentName };
  };
  if (raw.signers.length) {
    if (raw.signerName.trim() || raw.signerEmail.trim() || raw.signerEmails.some((e) => e.trim()))
      throw fieldInvalid('signers', 'give either signers or signer_name/signer_email/signer_emails, not both');
    if (photos.has('reference')) throw fieldInvalid('reference', 'with signers, each photo is the part signer_photo_<index>');
    if (raw.requiredAssurance?.trim())
      throw fieldInvalid('required_assurance', 'with signers, each party gives its own required_assurance');
    if (raw.signerLocale?.trim()) throw fieldInvalid('signer_locale', 'with signers, each party gives its own locale');
    const numbered = new Set([...photos].filter((p): p is number => p !== 'reference'));
    return { parties: validateParties(raw.signers, numbered), ...common() };
  }
  const stray = [...photos].find((p) => p !== 'reference');
  if (stray !== undefined) throw fieldInvalid(`signer_photo_${stray}`, 'is accepted only with signers');
  const name = raw.signerName.trim();
  if (!name) throw fieldInvalid('signer_name', 'is required');
  if (name.length > 200) throw fieldInvalid('signer_name', 'must be at most 200 characters');
  if (CONTROL.test(name)) throw fieldInvalid('signer_name', 'must not contain control characters');
  const email = raw.signerEmail.trim();
  if (!email) throw fieldInvalid('signer_email', 'is required');
  if (!isEmail(email)) throw fieldInvalid('signer_email', 'is not an email address');
  const extra = raw.signerEmails.map((e) => e.trim()).filter(Boolean);
  if (extra.length > MAX_ADDITIONAL_SIGNERS)
    throw fieldInvalid('signer_emails', `at most ${MAX_ADDITIONAL_SIGNERS} additional signers`);
  for (const e of extra) if (!isEmail(e)) throw fieldInvalid('signer_emails', `"${e.slice(0, 100)}" is not an email address`);
  const all = [email, ...extra].map((e) => e.toLowerCase());
  if (new Set(all).size !== all.length) throw fieldInvalid('signer_emails', 'each signer must have a different email address');
  const required = requiredAssuranceOf(raw.requiredAssurance ?? '', false);
  const locale = localeOf(raw.signerLocale, 'signer_locale');
  return {
    parties: legacyParties({
      signer_name: name,
      signer_email: email,
      signer_emails: extra,
      required_assurance: required,
      locale,
    }),
    ...common(),
  };
}

/** Decided on the first bytes: true/false once 5 bytes are known, undefined before. */
export function looksLikePdf(head: Buffer): boolean | undefined {
  if (head.length < PDF_MAGIC.length) return head.equals(PDF_MAGIC.subarray(0, head.length)) ? undefined : false;
  return head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);
}

export type ImageKind = 'jpeg' | 'png';
/** The image kind by magic bytes, undefined while too few bytes are known, null when neither. */
export function imageKind(head: Buffer): ImageKind | null | undefined {
  for (const [kind, magic] of [
    ['jpeg', JPEG_MAGIC],
    ['png', PNG_MAGIC],
  ] as const) {
    const n = Math.min(head.length, magic.length);
    if (head.subarray(0, n).equals(magic.subarray(0, n))) return n === magic.length ? kind : undefined;
  }
  return null;
}

/** Fully decodes the reference photo (bounded memory); throws naming the field when it is not a usable image. */
export function checkReferenceImage(buf: Buffer, field = 'reference'): { kind: ImageKind; width: number; height: number } {
  if (buf.length === 0) throw fieldInvalid(field, 'is empty');
  if (buf.length > MAX_REFERENCE_BYTES) throw fieldInvalid(field, 'must be at most 10 MB');
  const kind = imageKind(buf);
  if (!kind) throw fieldInvalid(field, 'must be a JPEG or PNG image');
  try {
    if (kind === 'jpeg') {
      const img = jpeg.decode(buf, { maxResolutionInMP: 50, maxMemoryUsageInMB: 256, formatAsRGBA: false });
      if (!img.width || !img.height) throw new Error('no pixels');
      return { kind, width: img.width, height: img.height };
    }
    const png = PNG.sync.read(buf);
    if (!png.width || !png.height) throw new Error('no pixels');
    return { kind, width: png.width, height: png.height };
  } catch {
    throw fieldInvalid(field, `is not a decodable ${kind.toUpperCase()} image`);
  }
}

/** <PREFIX>-TX-<8 random digits>; uniqueness is the store's unique index. */
export function newReference(prefix: string): string {
  return `${prefix}-TX-${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** 256-bit URL-safe signing token. */
export const newSigningToken = () => randomBytes(32).toString('base64url');

/** A salted commitment to a media hash, so the public certificate does not expose the hash itself. */
export function commitment(salt: string, sha256: string): string {
  if (!sha256) return '';
  return createHash('sha256').update(`${salt}:${sha256}`).digest('hex');
}

/** The fingerprint of a creation request for Idempotency-Key comparison. */
export function requestFingerprint(fields: CreationFields, documentSha256: string, referenceSha256s: string[]): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        fields.parties,
        fields.attestation_type,
        fields.document_name,
        documentSha256,
        referenceSha256s,
        // Absent without fields, so a request without them keeps the fingerprint it had before them.
        ...(fields.form.length ? [fields.form] : []),
      ]),
    )
    .digest('hex');
}
