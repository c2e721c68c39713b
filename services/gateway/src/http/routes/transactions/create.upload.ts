import { transactionV1 } from '@signet/proto';
import type { Caller, GatewayContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import type { FileSink, UploadForm } from '../../upload/upload-bridge.js';
import {
  fieldsSchema,
  firstIssue,
  MAX_PARTIES,
  partiesSchema,
  partyIssue,
  SIGNER_PHOTO,
  TEXT_FIELDS,
} from './transactions.schemas.js';

const MAX_DOCUMENT_BYTES = 200 * 1024 * 1024;
const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;
/** Uploads are long calls: the deadline covers a 200 MB document from a slow client. */
const UPLOAD_DEADLINE_MS = 15 * 60 * 1000;
/** File bytes are forwarded in messages of about this size (fewer, larger messages cost less per byte). */
const FORWARD_CHUNK = 256 * 1024;

/**
 * A message of the CreateTransaction stream as the gateway writes it: file bytes as the list of
 * chunks busboy delivered (encoded straight into the message, one copy), anything else as itself.
 */
type OutgoingChunk = transactionV1.CreateTransactionChunk | { bytes: 'document' | 'reference'; chunks: Buffer[]; length: number };
/** A file part: the document, the one-signer form's reference, or signers[i]'s photo (signer_photo_<i>). */
type FilePart = 'document' | 'reference' | { signer: number };

/** Field tags of CreateTransactionChunk (transaction.proto): document = 2, reference = 3, both length-delimited. */
const BYTES_TAG = { document: (2 << 3) | 2, reference: (3 << 3) | 2 } as const;

/**
 * Serializes a CreateTransactionChunk. File bytes are written once into the wire buffer (tag, varint
 * length, bytes) instead of concatenated, copied by the protobuf writer and copied again by Buffer.from:
 * the same bytes as the generated encoder, a third of the copying.
 */
export function serializeChunk(msg: OutgoingChunk): Buffer {
  if (!('bytes' in msg)) return Buffer.from(transactionV1.CreateTransactionChunk.encode(msg).finish());
  let header = 1;
  for (let n = msg.length; n > 0x7f; n >>>= 7) header++;
  const out = Buffer.allocUnsafe(1 + header + msg.length);
  out[0] = BYTES_TAG[msg.bytes];
  let off = 1;
  let n = msg.length;
  while (n > 0x7f) {
    out[off++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[off++] = n;
  for (const c of msg.chunks) off += c.copy(out, off);
  return out;
}

/**
 * POST /api/transactions as a form of the upload bridge, onto the transaction service's
 * client-streaming CreateTransaction: `begin`, the document and reference bytes as they arrive (each
 * file checked by its first bytes and gathered into messages of about FORWARD_CHUNK), then the checked
 * text fields. Any failure cancels the call and the service removes what it stored.
 */
export function creationForm(
  ctx: GatewayContext,
  caller: Caller,
  key: string | undefined,
): UploadForm<OutgoingChunk, transactionV1.CreateTransactionResult> {
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  let documentName = '';
  return {
    // busboy reports the limit on reaching it, so one byte more: exactly 200 MB is accepted.
    limits: {
      fileSize: MAX_DOCUMENT_BYTES + 1,
      files: 2 + MAX_PARTIES,
      fields: 13,
      // 64 KB: a `fields` list of up to 200 fields (the other text fields are far shorter).
      fieldSize: 64 * 1024,
      parts: 10 + MAX_PARTIES,
      headerPairs: 50,
    },
    details: {
      unparsable: 'the body must be multipart/form-data with a boundary',
      malformed: 'the multipart body is malformed',
      partsLimit: 'too many parts in the body',
      filesLimit: `only the document and reference photos (one each, at most ${MAX_PARTIES} photos) are accepted`,
      fieldsLimit: 'too many fields in the body',
    },
    field(name, value, info) {
      if (!TEXT_FIELDS.has(name)) throw badRequest(`${name}: is not a known field`);
      if (seen.has(name)) throw badRequest(`${name}: given more than once`);
      if (info.valueTruncated) throw badRequest(`${name}: is too long`);
      seen.add(name);
      fields[name] = value;
    },
    file(name, info) {
      const photo = SIGNER_PHOTO.exec(name);
      if (name !== 'document' && name !== 'reference' && !(photo && Number(photo[1]) < MAX_PARTIES))
        throw badRequest(
          `${name}: is not a known file field (document, reference or signer_photo_0 … signer_photo_${MAX_PARTIES - 1})`,
        );
      if (seen.has(name)) throw badRequest(`${name}: given more than once`);
      seen.add(name);
      // Composed form (NFC): a name typed on macOS arrives decomposed ("o" + combining acute) and would
      // otherwise show, compare and seal differently from the same name typed elsewhere.
      if (name === 'document') documentName = (info.filename ?? '').normalize('NFC');
      return fileSink(photo ? { signer: Number(photo[1]) } : (name as 'document' | 'reference'));
    },
    open: () =>
      ctx.transaction.clientStream(transactionV1.TransactionServiceService.createTransaction, {
        deadlineMs: UPLOAD_DEADLINE_MS,
        serialize: serializeChunk,
      }),
    begin: () => ({
      part: {
        $case: 'begin',
        value: {
          ownerId: caller.ownerId,
          orgName: caller.orgName,
          idempotencyKey: key ?? '',
          test: caller.mode === 'test',
          senderEmail: caller.email,
          createdBy: caller.userId,
        },
      },
    }),
    end() {
      // The signers form (a JSON list of parties) or the spec's one-signer form; the other fields are common.
      const listed = fields.signers !== undefined;
      const parsed = (listed ? fieldsSchema.partial({ signer_name: true, signer_email: true }) : fieldsSchema).safeParse(
        listed ? { ...fields, signer_name: undefined, signer_email: undefined } : fields,
      );
      if (!parsed.success) throw badRequest(firstIssue(parsed.error));
      const f = parsed.data;
      const parties = listed ? partiesOf(fields, seen) : undefined;
      if (!seen.has('document')) throw badRequest('document: is required');
      if (!listed && !seen.has('reference')) throw badRequest('reference: is required');
      const photo = [...seen].find((n) => SIGNER_PHOTO.test(n));
      if (!listed && photo) throw badRequest(`${photo}: is accepted only with signers`);
      return [
        {
          part: {
            $case: 'fields',
            value: {
              signerName: f.signer_name ?? '',
              signerEmail: f.signer_email ?? '',
              signerEmails: f.signer_emails,
              attestationType: f.attestation_type,
              documentName,
              signers: parties ?? [],
              // Empty: the service's default (live); with signers each party carries its own.
              requiredAssurance: f.required_assurance ?? '',
              signerLocale: f.signer_locale ?? '',
              formFields: formFieldsOf(fields.fields),
              expiresAt: f.expires_at ?? '',
              reminderFirstAfterSeconds: f.reminder_first_after_seconds ?? 0,
              reminderEverySeconds: f.reminder_every_seconds ?? 0,
              // 0 asks for no reminders; the service reads -1 as none and 0 as its default.
              reminderMax: f.reminder_max === undefined ? 0 : f.reminder_max === 0 ? -1 : f.reminder_max,
            },
          },
        },
      ];
    },
  };
}

/**
 * The `signers` form: the parties' shape is checked here (the first issue names the signer by index);
 * their values (emails, orders, which signer needs a photo) by the transaction service, which names
 * the signer too. The one-signer fields and `reference` do not mix with it.
 */
function partiesOf(fields: Record<string, string>, seen: Set<string>): transactionV1.SignerSpec[] {
  for (const f of ['signer_name', 'signer_email', 'signer_emails'])
    if (fields[f] !== undefined)
      throw badRequest(`${f}: give either signers or signer_name/signer_email/signer_emails, not both`);
  if (fields.required_assurance !== undefined)
    throw badRequest('required_assurance: with signers, each party gives its own required_assurance');
  if (fields.signer_locale !== undefined) throw badRequest('signer_locale: with signers, each party gives its own locale');
  if (seen.has('reference')) throw badRequest('reference: with signers, each photo is the part signer_photo_<index>');
  const parties = partiesSchema.safeParse(fields.signers);
  if (!parties.success) throw badRequest(partyIssue(parties.error));
  return parties.data.map((p) => ({
    name: p.name,
    email: p.email,
    role: p.role ?? 'signer',
    order: p.order ?? 1,
    verification: p.verification ?? '',
    webauthn: p.webauthn ?? false,
    requiredAssurance: p.required_assurance ?? '',
    locale: p.locale ?? '',
  }));
}

/**
 * The `fields` list (a JSON text field): its shape is a JSON array of at most 200 objects here; each
 * field's values, its signer and its place on the document are checked by the transaction service,
 * which names the field.
 */
function formFieldsOf(text: string | undefined): string {
  if (text === undefined || !text.trim()) return '';
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    throw badRequest('fields: is not valid JSON');
  }
  if (!Array.isArray(list)) throw badRequest('fields: must be a JSON array of fields');
  if (list.length > 200) throw badRequest('fields: at most 200 fields');
  if (list.some((f) => typeof f !== 'object' || f === null || Array.isArray(f)))
    throw badRequest('fields: each field must be a JSON object');
  return text;
}

/** A file's bytes: checked by their first bytes (PDF; JPEG or PNG), gathered into messages of about FORWARD_CHUNK. */
function fileSink(part: FilePart): FileSink<OutgoingChunk> {
  const name = typeof part === 'string' ? part : `signer_photo_${part.signer}`;
  let head = Buffer.alloc(0);
  let checked = false;
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const wrongKind = () =>
    badRequest(
      name === 'document' ? 'document: is not a PDF (it must begin with %PDF-)' : `${name}: must be a JPEG or PNG image`,
    );
  const take = (): OutgoingChunk[] => {
    if (!pendingBytes) return [];
    const msg: OutgoingChunk =
      typeof part === 'string'
        ? { bytes: part, chunks: pending, length: pendingBytes }
        : { part: { $case: 'signerReference', value: { signer: part.signer, data: Buffer.concat(pending, pendingBytes) } } };
    pending = [];
    pendingBytes = 0;
    return [msg];
  };
  return {
    tooLarge: 'document: must be at most 200 MB',
    data(chunk) {
      size += chunk.length;
      if (!checked) {
        head = Buffer.concat([head, chunk]).subarray(0, 8);
        const verdict = name === 'document' ? pdfHead(head) : imageHead(head);
        if (verdict === false) throw wrongKind();
        checked = verdict === true;
      }
      if (name !== 'document' && size > MAX_REFERENCE_BYTES) throw badRequest(`${name}: must be at most 10 MB`);
      pending.push(chunk);
      pendingBytes += chunk.length;
      return pendingBytes >= FORWARD_CHUNK ? take() : [];
    },
    end() {
      if (size === 0) throw badRequest(`${name}: is empty`);
      if (!checked) throw wrongKind();
      return take();
    },
  };
}

const PDF = Buffer.from('%PDF-');
function pdfHead(head: Buffer): boolean | undefined {
  const n = Math.min(head.length, PDF.length);
  if (!head.subarray(0, n).equals(PDF.subarray(0, n))) return false;
  return n === PDF.length ? true : undefined;
}
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function imageHead(head: Buffer): boolean | undefined {
  let maybe = false;
  for (const magic of [JPEG, PNG]) {
    const n = Math.min(head.length, magic.length);
    if (head.subarray(0, n).equals(magic.subarray(0, n))) {
      if (n === magic.length) return true;
      maybe = true;
    }
  }
  return maybe ? undefined : false;
}
