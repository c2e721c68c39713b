import { RE2JS } from 're2js';
import { fieldInvalid } from './errors.js';
import type { Party } from './signers.js';

/**
 * Fields placed on the document and filled by one signer each (issue 33). Positions are PDF points
 * with the origin at the lower-left corner of the page as shown (its crop box), x to the right, y up,
 * in the page's unrotated coordinates; `page` counts from 1. A field is placed either by page and
 * rectangle or by an anchor text found in the document (every occurrence of it places the field).
 */
export const FIELD_TYPES = [
  'signature',
  'initials',
  'date_signed',
  'full_name',
  'email',
  'text',
  'checkbox',
  'dropdown',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
/** Filled by the service from the signer's record, never by the signer. */
export const COMPUTED_TYPES: readonly FieldType[] = ['date_signed', 'full_name', 'email'];
/** Filled with the signer's adopted signature or initials (one image or typed text per signer). */
export const MARK_TYPES: readonly FieldType[] = ['signature', 'initials'];

export const MAX_FIELDS = 200;
export const MAX_TEXT_LENGTH = 1000;
export const DEFAULT_TEXT_LENGTH = 200;
export const MAX_PATTERN_LENGTH = 200;
export const MAX_OPTIONS = 50;
const MAX_COORDINATE = 14_400; // the largest page PDF allows (200 inches), in points
const ID = /^[A-Za-z0-9_.-]{1,64}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export type Rect = { page: number; x: number; y: number; width: number; height: number };
export type FieldValue = string | boolean;

/** A field as the sender gave it (checked): where it goes is a rectangle or an anchor. */
export type FieldSpec = {
  id: string;
  type: FieldType;
  /** The party's position in the request's party list. */
  party: number;
  required: boolean;
  readonly: boolean;
  label: string;
  at: { rect: Rect } | { anchor: string; offsetX: number; offsetY: number; width?: number; height?: number };
  maxLength?: number;
  pattern?: string;
  options?: string[];
  value?: FieldValue;
};

/** A field as kept on the record: resolved to its rectangles, assigned to a signer by record index. */
export type FormField = {
  id: string;
  type: FieldType;
  signer: number;
  required: boolean;
  readonly?: boolean;
  label?: string;
  anchor?: string;
  places: Rect[];
  max_length?: number;
  pattern?: string;
  options?: string[];
  value?: FieldValue;
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A pattern the service will run: RE2 syntax (linear time, no backreferences or lookaround), bounded in length. */
export function compilePattern(pattern: string, field: string): RE2JS {
  if (pattern.length > MAX_PATTERN_LENGTH) throw fieldInvalid(field, `pattern must be at most ${MAX_PATTERN_LENGTH} characters`);
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '').slice(0, 120) : 'invalid';
    throw fieldInvalid(field, `pattern is not a valid regular expression (RE2 syntax: no backreferences or lookaround): ${why}`);
  }
}

function num(o: Obj, key: string, name: string, min: number, max: number): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    throw fieldInvalid(name, `${key} must be a number from ${min} to ${max}`);
  return v;
}

function str(o: Obj, key: string, name: string, max: number): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > max || CONTROL.test(v))
    throw fieldInvalid(name, `${key} must be text of at most ${max} characters without control characters`);
  return v.normalize('NFC');
}

function placementOf(o: Obj, name: string): FieldSpec['at'] {
  const anchor = str(o, 'anchor', name, 100);
  const width = num(o, 'width', name, 1, MAX_COORDINATE);
  const height = num(o, 'height', name, 1, MAX_COORDINATE);
  if (anchor !== undefined) {
    if (o.page !== undefined || o.x !== undefined || o.y !== undefined)
      throw fieldInvalid(name, 'give either anchor or page, x and y, not both');
    if (anchor.trim().length < 3) throw fieldInvalid(name, 'anchor must be at least 3 characters');
    const offsetX = num(o, 'offset_x', name, -MAX_COORDINATE, MAX_COORDINATE) ?? 0;
    const offsetY = num(o, 'offset_y', name, -MAX_COORDINATE, MAX_COORDINATE) ?? 0;
    return { anchor, offsetX, offsetY, width, height };
  }
  const page = num(o, 'page', name, 1, 100_000);
  const x = num(o, 'x', name, 0, MAX_COORDINATE);
  const y = num(o, 'y', name, 0, MAX_COORDINATE);
  if (page === undefined || x === undefined || y === undefined || width === undefined || height === undefined)
    throw fieldInvalid(name, 'needs page, x, y, width and height (PDF points from the lower-left corner), or an anchor');
  if (!Number.isInteger(page)) throw fieldInvalid(name, 'page must be a whole number (1 is the first page)');
  return { rect: { page, x, y, width, height } };
}

/** The type-specific settings and the prefilled value, checked against each other. */
function settingsOf(o: Obj, type: FieldType, name: string): Pick<FieldSpec, 'maxLength' | 'pattern' | 'options' | 'value'> {
  const out: Pick<FieldSpec, 'maxLength' | 'pattern' | 'options' | 'value'> = {};
  if (type !== 'text' && (o.max_length !== undefined || o.pattern !== undefined))
    throw fieldInvalid(name, 'max_length and pattern apply to text fields only');
  if (type !== 'dropdown' && o.options !== undefined) throw fieldInvalid(name, 'options apply to dropdown fields only');
  if (o.value !== undefined && ([...COMPUTED_TYPES, ...MARK_TYPES] as string[]).includes(type))
    throw fieldInvalid(name, `a ${type} field cannot be prefilled`);
  if (type === 'text') {
    const max = num(o, 'max_length', name, 1, MAX_TEXT_LENGTH);
    if (max !== undefined && !Number.isInteger(max)) throw fieldInvalid(name, 'max_length must be a whole number');
    out.maxLength = max ?? DEFAULT_TEXT_LENGTH;
    const pattern = o.pattern;
    if (pattern !== undefined) {
      if (typeof pattern !== 'string' || !pattern) throw fieldInvalid(name, 'pattern must be a non-empty string');
      compilePattern(pattern, name);
      out.pattern = pattern;
    }
  }
  if (type === 'dropdown') {
    const opts = o.options;
    if (!Array.isArray(opts) || opts.length < 1 || opts.length > MAX_OPTIONS)
      throw fieldInvalid(name, `options must list 1 to ${MAX_OPTIONS} choices`);
    const options = opts.map((v) => {
      if (typeof v !== 'string' || !v.trim() || v.length > 100 || CONTROL.test(v))
        throw fieldInvalid(name, 'each option must be text of 1 to 100 characters without control characters');
      return v.normalize('NFC');
    });
    if (new Set(options).size !== options.length) throw fieldInvalid(name, 'options must be different from each other');
    out.options = options;
  }
  if (o.value !== undefined)
    out.value = checkValue({ type, max_length: out.maxLength, pattern: out.pattern, options: out.options }, o.value, name);
  return out;
}

/**
 * One value for a field of the signer's own kind (text, checkbox, dropdown): its type, length, pattern
 * (the whole value must match) and options. Throws a 400 naming `name`.
 */
export function checkValue(
  f: { type: FieldType; max_length?: number; pattern?: string; options?: string[] },
  v: unknown,
  name: string,
): FieldValue {
  switch (f.type) {
    case 'checkbox':
      if (typeof v !== 'boolean') throw fieldInvalid(name, 'a checkbox takes true or false');
      return v;
    case 'dropdown':
      if (typeof v !== 'string' || !f.options?.includes(v.normalize('NFC')))
        throw fieldInvalid(
          name,
          `must be one of the options: ${(f.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`.slice(0, 400),
        );
      return v.normalize('NFC');
    case 'text': {
      if (typeof v !== 'string') throw fieldInvalid(name, 'a text field takes a string');
      const s = v.normalize('NFC');
      const max = f.max_length ?? DEFAULT_TEXT_LENGTH;
      if ([...s].length > max) throw fieldInvalid(name, `must be at most ${max} characters`);
      if (CONTROL.test(s)) throw fieldInvalid(name, 'must not contain control characters');
      if (f.pattern && s && !compilePattern(f.pattern, name).matches(s))
        throw fieldInvalid(name, `does not match the pattern ${JSON.stringify(f.pattern)}`);
      return s;
    }
    default:
      throw fieldInvalid(name, `a ${f.type} field is not filled with a value`);
  }
}

/**
 * The `fields` of a creation request (JSON as sent), checked without the document: types, ids,
 * settings, prefilled values, and which party fills each (a signer or approver of the request, by
 * position). Where each lands on the document is checked by field-placement.ts.
 */
export function parseFieldSpecs(raw: unknown, parties: Party[]): FieldSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw fieldInvalid('fields', 'must be a JSON array of fields');
  if (raw.length > MAX_FIELDS) throw fieldInvalid('fields', `at most ${MAX_FIELDS} fields`);
  const ids = new Set<string>();
  return raw.map((o, i): FieldSpec => {
    let name = `fields[${i}]`;
    if (!isObj(o)) throw fieldInvalid(name, 'must be an object');
    const id = o.id === undefined ? `field_${i + 1}` : o.id;
    if (typeof id !== 'string' || !ID.test(id)) throw fieldInvalid(name, 'id must be 1 to 64 letters, digits, _ . or -');
    if (ids.has(id)) throw fieldInvalid(name, `id "${id}" is used twice`);
    ids.add(id);
    name = `fields[${i}] (${id})`;
    const type = o.type;
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type))
      throw fieldInvalid(name, `type must be one of ${FIELD_TYPES.join(', ')}`);
    const party = o.signer;
    if (typeof party !== 'number' || !Number.isInteger(party) || party < 0 || party >= parties.length)
      throw fieldInvalid(name, `signer must be the position of a signer in the signers list (0 to ${parties.length - 1})`);
    if (parties[party]!.role === 'viewer') throw fieldInvalid(name, `signer ${party} is a viewer, who fills no fields`);
    for (const b of ['required', 'readonly'])
      if (o[b] !== undefined && typeof o[b] !== 'boolean') throw fieldInvalid(name, `${b} must be true or false`);
    const t = type as FieldType;
    const spec: FieldSpec = {
      id,
      type: t,
      party,
      required: (o.required as boolean | undefined) ?? true,
      readonly: (o.readonly as boolean | undefined) ?? false,
      label: str(o, 'label', name, 200) ?? '',
      at: placementOf(o, name),
      ...settingsOf(o, t, name),
    };
    if (spec.readonly && spec.value === undefined && !COMPUTED_TYPES.includes(t))
      throw fieldInvalid(name, 'a readonly field needs a prefilled value');
    return spec;
  });
}
