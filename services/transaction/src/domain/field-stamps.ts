import type { FormField, Rect } from './form-fields.js';
import type { Signer } from './transaction.js';

/**
 * One field's value as the ledger draws it into the signed PDF (services/ledger/src/pdf/fields-stamp.ts),
 * with the field's id, label and signer (record index) for the audit trail's list of values.
 */
export type StampedField = { places: Rect[]; id: string; signer: number; label?: string } & (
  { text: string } | { checked: boolean } | { png: string }
);
type Stamp = { places: Rect[] } & ({ text: string } | { checked: boolean } | { png: string });

/**
 * Above this the drawn marks go into the event as text instead: an event stays well under the broker's
 * 1 MB message limit (drawings are re-encoded at most 256 KB each; ten signers could exceed it).
 */
const MAX_JSON = 700_000;

function stampOf(f: FormField, s: Signer, withImages: boolean): Stamp | null {
  const at = { places: f.places };
  if (f.type === 'signature' || f.type === 'initials') {
    const mark = s.fields?.[f.type];
    if (!mark) return null;
    if (mark.kind === 'typed') return { ...at, text: mark.text };
    return withImages ? { ...at, png: mark.png } : { ...at, text: `(${f.type} drawn, sha256 ${mark.sha256.slice(0, 16)})` };
  }
  if (f.type === 'full_name') return { ...at, text: s.name };
  if (f.type === 'email') return { ...at, text: s.email };
  // The date the signer passed their ceremony (UTC): what "date signed" means on the document.
  if (f.type === 'date_signed')
    return { ...at, text: new Date(s.verified_at ?? s.fields?.submitted_at ?? Date.now()).toISOString().slice(0, 10) };
  const v = s.fields?.values[f.id] ?? f.value;
  if (f.type === 'checkbox') return { ...at, checked: v === true };
  return typeof v === 'string' && v ? { ...at, text: v } : null;
}

/**
 * The signers' values at their places, for the transaction.verified event (JSON; empty without
 * fields): each signer's submitted values, else the prefilled ones, the service's own for name, e-mail
 * and date signed, their adopted signature and initials.
 */
export function stampedFieldsJson(fields: FormField[] | undefined, signers: Signer[]): string {
  if (!fields?.length) return '';
  const build = (withImages: boolean) =>
    fields.flatMap((f) => {
      const s = signers[f.signer];
      const stamp = s ? stampOf(f, s, withImages) : null;
      return stamp ? [{ id: f.id, signer: f.signer, ...(f.label ? { label: f.label } : {}), ...stamp }] : [];
    });
  const json = JSON.stringify(build(true));
  return json.length <= MAX_JSON ? json : JSON.stringify(build(false));
}
