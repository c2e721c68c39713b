import type { transactionV1 } from '@signet/proto';
import { fieldsComplete, valueOf } from '../domain/field-values.js';
import type { Signer } from '../domain/transaction.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import { getSignerFields, submitSignerFields, type SignerFieldsDeps } from '../usecases/signer-fields.js';

/** A Buffer view of the decoded bytes, without copying them. */
const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** The signer's own fields with their values (kept, prefilled or the service's), as the signing page shows them. */
export function toSignerFields(rec: TransactionRecord, signer: Signer, now: Date): transactionV1.SignerFields {
  const fields = (rec.form_fields ?? []).filter((f) => f.signer === signer.index);
  return {
    fields: fields.map((f) => {
      const v = valueOf(f, signer, now);
      return {
        id: f.id,
        type: f.type,
        required: f.required,
        readonly: !!f.readonly,
        label: f.label ?? '',
        places: f.places,
        maxLength: f.max_length ?? 0,
        pattern: f.pattern ?? '',
        options: f.options ?? [],
        valueJson: v === undefined ? '' : JSON.stringify(v),
        anchor: f.anchor ?? '',
      };
    }),
    complete: fieldsComplete(fields, signer, now),
    submittedAt: signer.fields?.submitted_at ? new Date(signer.fields.submitted_at).toISOString() : '',
    signature: signer.fields?.signature?.kind ?? '',
    initials: signer.fields?.initials?.kind ?? '',
  };
}

/** GetSignerFields and SubmitSignerFields (usecases/signer-fields.ts). */
export function fieldsHandlers(deps: SignerFieldsDeps) {
  return {
    async getSignerFields(req: transactionV1.ResolveSigningTokenRequest): Promise<transactionV1.SignerFields> {
      const { rec, signer } = await getSignerFields(deps, req.token);
      return toSignerFields(rec, signer, deps.clock());
    },
    async submitSignerFields(req: transactionV1.SubmitSignerFieldsRequest): Promise<transactionV1.SignerFields> {
      let values: unknown = {};
      try {
        values = req.valuesJson ? (JSON.parse(req.valuesJson) as unknown) : {};
      } catch {
        values = null;
      }
      const mark = (m: transactionV1.SignatureMark | undefined) => (m ? { png: asBuffer(m.png), typed: m.typed } : undefined);
      const { rec, signer } = await submitSignerFields(deps, req.token, {
        values,
        signature: mark(req.signature),
        initials: mark(req.initials),
      });
      return toSignerFields(rec, signer, deps.clock());
    },
  };
}
