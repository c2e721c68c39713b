/**
 * The signers' field values as the audit trail lists them (issue 33), from the stamped fields the
 * transaction service sent (transaction.verified fields_json: each with its id, label and signer's
 * index). One line per signer: `label: "value"` for text, ticked / not ticked, drawn for a drawing.
 */
type Listed = { id?: unknown; label?: unknown; signer?: unknown; text?: unknown; checked?: unknown; png?: unknown };

function shown(f: Listed): string | null {
  if (typeof f.png === 'string') return 'drawn';
  if (typeof f.checked === 'boolean') return f.checked ? 'ticked' : 'not ticked';
  if (typeof f.text === 'string') return JSON.stringify(f.text);
  return null;
}

/** Per signer (by index, `count` of them) the values they filled, or '' for none; a list that does not parse gives none. */
export function fieldValuesBySigner(fieldsJson: string | undefined, count: number): string[] {
  const out: string[][] = Array.from({ length: count }, () => []);
  let list: unknown;
  try {
    list = fieldsJson ? JSON.parse(fieldsJson) : [];
  } catch {
    return out.map(() => '');
  }
  if (!Array.isArray(list)) return out.map(() => '');
  for (const f of list as Listed[]) {
    const value = f && typeof f === 'object' ? shown(f) : null;
    const signer = typeof f?.signer === 'number' ? f.signer : -1;
    if (value === null || !out[signer]) continue;
    const name = typeof f.label === 'string' && f.label ? f.label : typeof f.id === 'string' ? f.id : 'field';
    out[signer]!.push(`${name}: ${value}`);
  }
  return out.map((v) => v.join('; '));
}
