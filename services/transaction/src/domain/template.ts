import { fieldInvalid } from './errors.js';
import type { PageSize } from './field-placement.js';
import { parseFieldSpecs, type FieldSpec } from './form-fields.js';
import { MAX_PARTIES, validateParties, type Party, type PartySpec } from './signers.js';

/**
 * Templates (issue 33 item 3): a stored document with its fields and signer roles. A template's
 * fields are a transaction's fields with `role` (a role's name) in place of `signer` (a position in
 * the signers list); a transaction from the template maps each role to a signer, in the roles' order.
 */
export type TemplateRole = {
  name: string;
  order: number;
  verification: string;
  webauthn: boolean;
  required_assurance: string;
};

/** A template's field as kept: the sender's JSON object (checked), with its `id` and `role`. */
export type TemplateField = Record<string, unknown> & { id: string; role: string };

export type TemplateRecord = {
  _id: string;
  owner_id: string;
  test: boolean;
  name: string;
  roles: TemplateRole[];
  fields: TemplateField[];
  document_key: string;
  document_sha256: string;
  document_size: number;
  document_name: string;
  pages: PageSize[];
  created_at: Date;
  updated_at: Date;
};

export const MAX_TEMPLATE_NAME = 200;
const ROLE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,63}$/u;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A template's name: 1 to 200 characters without control characters (trimmed, NFC). */
export function checkTemplateName(raw: string): string {
  const name = raw.trim().normalize('NFC');
  if (!name) throw fieldInvalid('name', 'is required');
  if ([...name].length > MAX_TEMPLATE_NAME) throw fieldInvalid('name', `must be at most ${MAX_TEMPLATE_NAME} characters`);
  if (CONTROL.test(name)) throw fieldInvalid('name', 'must not contain control characters');
  return name;
}

/**
 * The roles, checked as a transaction's signers list is (orders without gaps, verification, WebAuthn,
 * required assurance: validateParties, with a stand-in name and address per role) plus their names:
 * 1 to 64 letters, digits, space, _ . or -, different from each other (case-insensitive).
 */
export function checkRoles(roles: TemplateRole[]): TemplateRole[] {
  if (!roles.length) throw fieldInvalid('roles', 'must list at least one role');
  if (roles.length > MAX_PARTIES) throw fieldInvalid('roles', `at most ${MAX_PARTIES} roles`);
  const seen = new Set<string>();
  const out = roles.map((r, i): TemplateRole => {
    const name = r.name.trim().normalize('NFC');
    if (!ROLE_NAME.test(name))
      throw fieldInvalid(
        `roles[${i}]`,
        'name must be 1 to 64 letters, digits, spaces, _ . or -, beginning with a letter or digit',
      );
    if (seen.has(name.toLowerCase())) throw fieldInvalid(`roles[${i}]`, `name "${name}" is used twice`);
    seen.add(name.toLowerCase());
    return {
      name,
      order: r.order || 1,
      verification: r.verification.trim(),
      webauthn: r.webauthn,
      required_assurance: r.required_assurance.trim(),
    };
  });
  const faceMatch = new Set(out.flatMap((r, i) => (r.verification === 'liveness_only' ? [] : [i])));
  try {
    validateParties(
      out.map((r, i) => partyOf(r, `Role ${i}`, `role${i}@template.invalid`)),
      faceMatch,
    );
  } catch (err) {
    // validateParties names `signers[i] (email)`: the template names the role.
    const msg = err instanceof Error ? err.message : String(err);
    const m = /^signers\[(\d+)\](?: \([^)]*\))?: (.*)$/s.exec(msg);
    if (m) throw fieldInvalid(`roles[${m[1]}] (${out[Number(m[1])]!.name})`, m[2]!);
    if (msg.startsWith('signers: ')) throw fieldInvalid('roles', msg.slice('signers: '.length));
    throw err;
  }
  return out;
}

/** The party a role stands for, with the signer's name and address. */
export function partyOf(r: TemplateRole, name: string, email: string): PartySpec {
  return {
    name,
    email,
    role: 'signer',
    order: r.order,
    verification: r.verification,
    webauthn: r.webauthn,
    requiredAssurance: r.required_assurance,
  };
}

/** A transaction's `fields` list from a template's: each `role` becomes `signer` (the role's position). */
export function fieldsForSigners(fields: TemplateField[], roles: TemplateRole[]): Obj[] {
  return fields.map((f) => {
    const { role, ...rest } = f;
    return { ...rest, signer: roles.findIndex((r) => r.name === role) };
  });
}

/**
 * A template's `fields` (JSON as sent), checked as a transaction's are (parseFieldSpecs) once each
 * `role` names one of `roles`. Returns what is kept (the objects with their ids) and the specs to
 * place on the document. Refusals name the field.
 */
export function parseTemplateFields(raw: unknown, roles: TemplateRole[]): { kept: TemplateField[]; specs: FieldSpec[] } {
  if (raw === undefined) return { kept: [], specs: [] };
  if (!Array.isArray(raw)) throw fieldInvalid('fields', 'must be a JSON array of fields');
  const names = roles.map((r) => r.name);
  const objs = raw.map((o, i) => {
    if (!isObj(o)) throw fieldInvalid(`fields[${i}]`, 'must be an object');
    if (o.signer !== undefined) throw fieldInvalid(`fields[${i}]`, 'a template field names its role, not a signer');
    const role = typeof o.role === 'string' ? o.role.trim().normalize('NFC') : undefined;
    if (role === undefined || !names.includes(role))
      throw fieldInvalid(`fields[${i}]`, `role must name one of the template's roles: ${names.join(', ')}`);
    return { ...o, role };
  });
  const parties: Party[] = roles.map((r) => ({
    name: r.name,
    email: '',
    role: 'signer',
    order: r.order,
    verification: 'face_match',
    webauthn: r.webauthn,
  }));
  const specs = parseFieldSpecs(
    objs.map(({ role, ...o }) => ({ ...o, signer: names.indexOf(role) })),
    parties,
  );
  const kept = objs.map((o, i): TemplateField => ({ ...o, id: specs[i]!.id }));
  return { kept, specs };
}

/** Parses a JSON text the sender gave (`field` names it in the 400); empty: undefined. */
export function parseJsonText(text: string, field: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fieldInvalid(field, 'is not valid JSON');
  }
}

/** The signer a transaction from a template names for one of its roles. */
export type TemplateSignerSpec = { role: string; name: string; email: string };

/**
 * A transaction's parties and fields from a template: one signer per role (each role named once, no
 * other), in the roles' order, and the prefilled `values` by field id (each must be a field of the
 * template; checked as a prefilled value by the creation's own checks). Refusals name `signers[i]` or
 * `values.<id>`.
 */
export function partiesAndFieldsOf(
  tpl: Pick<TemplateRecord, 'roles' | 'fields'>,
  signers: TemplateSignerSpec[],
  values: unknown,
): { parties: PartySpec[]; formFields: string } {
  const byRole = new Map<string, TemplateSignerSpec>();
  const names = tpl.roles.map((r) => r.name);
  signers.forEach((s, i) => {
    const role = s.role.trim().normalize('NFC');
    if (!names.includes(role))
      throw fieldInvalid(
        `signers[${i}]`,
        `role ${JSON.stringify(role.slice(0, 64))} is not one of the template's roles: ${names.join(', ')}`,
      );
    if (byRole.has(role)) throw fieldInvalid(`signers[${i}]`, `role "${role}" is given twice`);
    byRole.set(role, s);
  });
  const parties = tpl.roles.map((r) => {
    const s = byRole.get(r.name);
    if (!s) throw fieldInvalid('signers', `no signer for the role "${r.name}"`);
    return partyOf(r, s.name, s.email);
  });
  if (values !== undefined && !isObj(values)) throw fieldInvalid('values', 'must be an object of values by field id');
  const ids = new Set(tpl.fields.map((f) => f.id));
  for (const id of Object.keys(values ?? {}))
    if (!ids.has(id)) throw fieldInvalid(`values.${id.slice(0, 64)}`, 'there is no such field in the template');
  const given = (values ?? {}) as Obj;
  const fields = tpl.fields.map((f) => (given[f.id] === undefined ? f : { ...f, value: given[f.id] }));
  return { parties, formFields: JSON.stringify(fieldsForSigners(fields, tpl.roles)) };
}
