import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { fieldInvalid } from './errors.js';
import { checkValue, COMPUTED_TYPES, MARK_TYPES, type FieldValue, type FormField } from './form-fields.js';
import type { Mark, Signer, SignerFieldValues } from './transaction.js';

/** A drawn signature or initials: a PNG of at most this many bytes and pixels, kept re-encoded by the service. */
export const MAX_MARK_BYTES = 256 * 1024;
export const MAX_MARK_WIDTH = 1200;
export const MAX_MARK_HEIGHT = 600;
const MIN_MARK_WIDTH = 16;
const MIN_MARK_HEIGHT = 8;
/** Pixels that must show ink (opaque and dark enough) for a drawing to count as one. */
const MIN_INK_PIXELS = 20;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export type MarkInput = { png?: Buffer; typed?: string };
export type Submission = { values: unknown; signature?: MarkInput; initials?: MarkInput };

/**
 * A signature or initials as the signer adopts it. Typed: 1 to 100 characters. Drawn: a PNG whose
 * header is read first (size and dimensions bounded before any pixel is decoded), then decoded whole
 * and re-encoded from its pixels, so nothing of the upload but its pixels is kept (no chunks, no
 * trailing bytes); a drawing with almost no ink is refused as blank.
 */
export function checkMark(input: MarkInput, name: 'signature' | 'initials'): Mark {
  const hasPng = !!input.png?.length;
  const typed = input.typed?.normalize('NFC').trim() ?? '';
  if (hasPng === !!typed) throw fieldInvalid(name, 'give either a drawn PNG or typed text, one of them');
  if (!hasPng) {
    if ([...typed].length > 100 || CONTROL.test(typed))
      throw fieldInvalid(name, 'typed text must be at most 100 characters without control characters');
    return { kind: 'typed', text: typed };
  }
  const buf = input.png!;
  if (buf.length > MAX_MARK_BYTES) throw fieldInvalid(name, `the drawing must be at most ${MAX_MARK_BYTES / 1024} KB`);
  if (buf.length < 33 || !buf.subarray(0, 8).equals(PNG_MAGIC) || buf.toString('latin1', 12, 16) !== 'IHDR')
    throw fieldInvalid(name, 'the drawing must be a PNG image');
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  if (width < MIN_MARK_WIDTH || height < MIN_MARK_HEIGHT || width > MAX_MARK_WIDTH || height > MAX_MARK_HEIGHT)
    throw fieldInvalid(
      name,
      `the drawing must be ${MIN_MARK_WIDTH}×${MIN_MARK_HEIGHT} to ${MAX_MARK_WIDTH}×${MAX_MARK_HEIGHT} pixels (it is ${width}×${height})`,
    );
  let png: PNG;
  try {
    png = PNG.sync.read(buf);
  } catch {
    throw fieldInvalid(name, 'the drawing is not a decodable PNG image');
  }
  let ink = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const lum = 0.299 * png.data[i]! + 0.587 * png.data[i + 1]! + 0.114 * png.data[i + 2]!;
    if (png.data[i + 3]! >= 128 && lum < 160) ink++;
  }
  if (ink < MIN_INK_PIXELS) throw fieldInvalid(name, 'the drawing is blank');
  const clean = new PNG({ width: png.width, height: png.height });
  png.data.copy(clean.data);
  const out = PNG.sync.write(clean, { colorType: 6 });
  if (out.length > MAX_MARK_BYTES) throw fieldInvalid(name, 'the drawing is too detailed to keep; draw it again');
  return {
    kind: 'drawn',
    png: out.toString('base64'),
    sha256: createHash('sha256').update(out).digest('hex'),
    width: png.width,
    height: png.height,
  };
}

/** The value a field shows for a signer: what they submitted, else the prefilled value, else the service's own. */
export function valueOf(f: FormField, signer: Pick<Signer, 'name' | 'email' | 'fields'>, now: Date): FieldValue | undefined {
  if (f.type === 'full_name') return signer.name;
  if (f.type === 'email') return signer.email;
  if (f.type === 'date_signed') return (signer.fields?.submitted_at ?? now).toISOString().slice(0, 10);
  return signer.fields?.values[f.id] ?? f.value;
}

/** Whether every required field of the signer has a value (a required checkbox must be ticked). */
export function fieldsComplete(
  fields: FormField[],
  signer: Pick<Signer, 'index' | 'name' | 'email' | 'fields'>,
  now: Date,
): boolean {
  return fields
    .filter((f) => f.signer === signer.index && f.required)
    .every((f) => {
      if (f.type === 'signature') return !!signer.fields?.signature;
      if (f.type === 'initials') return !!signer.fields?.initials;
      const v = valueOf(f, signer, now);
      return f.type === 'checkbox' ? v === true : v !== undefined && v !== '';
    });
}

type Obj = Record<string, unknown>;

/**
 * A signer's submission checked against their own fields, again on the server whatever the page
 * checked: each value by its field's type, length, pattern and options; no value for another
 * signer's field, a read-only or computed one, or an unknown id; every required field filled
 * (prefilled values count), the signature and initials given where a field needs them. The
 * submission replaces what was kept. Refusals are 400s naming the field.
 */
export function checkSubmission(
  fields: FormField[],
  signer: Pick<Signer, 'index' | 'name' | 'email'>,
  sub: Submission,
  now: Date,
): SignerFieldValues {
  const mine = fields.filter((f) => f.signer === signer.index);
  const raw = sub.values ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw) || raw === null)
    throw fieldInvalid('values', 'must be an object of field id → value');
  const values: Record<string, string | boolean> = {};
  for (const [id, v] of Object.entries(raw as Obj)) {
    const f = mine.find((x) => x.id === id);
    const name = `values.${id.slice(0, 64)}`;
    if (!f) throw fieldInvalid(name, 'is not one of your fields');
    if (COMPUTED_TYPES.includes(f.type)) throw fieldInvalid(name, `a ${f.type} field is filled by the service`);
    if (MARK_TYPES.includes(f.type)) throw fieldInvalid(name, `a ${f.type} field takes the ${f.type} given beside the values`);
    if (f.readonly) throw fieldInvalid(name, 'is read-only: its value was set by the sender');
    values[id] = checkValue(f, v, name);
  }
  const needs = (t: 'signature' | 'initials') => mine.some((f) => f.type === t);
  const result: SignerFieldValues = { values, submitted_at: now };
  for (const t of ['signature', 'initials'] as const) {
    const input = sub[t];
    if (input && (input.png?.length || input.typed)) {
      if (!needs(t)) throw fieldInvalid(t, `none of your fields takes ${t === 'signature' ? 'a signature' : 'initials'}`);
      result[t] = checkMark(input, t);
    }
  }
  const missing = mine.find((f) => f.required && !fieldsComplete([f], { ...signer, fields: result }, now));
  if (missing && MARK_TYPES.includes(missing.type)) throw fieldInvalid(missing.type, `is required (field ${missing.id})`);
  if (missing) throw fieldInvalid(`values.${missing.id}`, missing.type === 'checkbox' ? 'must be ticked' : 'is required');
  return result;
}
