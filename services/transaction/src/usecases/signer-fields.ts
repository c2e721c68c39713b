import { DomainError } from '@signet/kit';
import { fieldsClosed, signingTokenNotFound } from '../domain/errors.js';
import { checkSubmission, type Submission } from '../domain/field-values.js';
import type { FormField } from '../domain/form-fields.js';
import type { Change, Signer, SignerFieldValues, TxState } from '../domain/transaction.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';
import { resolveSigningToken } from './resolve-signing-token.js';

export type SignerFieldsDeps = ChangeDeps & {
  repo: Pick<TransactionRepository, 'resolveToken'>;
  tm: Pick<TransactionMetrics, 'fieldSubmissions'>;
};

/** A signer's fields and what was kept for them, from a signing link that still works (else NOT_FOUND). */
export async function getSignerFields(
  deps: SignerFieldsDeps,
  token: string,
): Promise<{ rec: TransactionRecord; signer: Signer }> {
  return resolveSigningToken(deps, token);
}

/** Signer states in which fields may still be filled: before a capture was accepted. */
const OPEN_STATES = ['created', 'consent_accepted'];

/** What the audit trail says of a submission: each value (bounded), the marks by kind and hash. */
function trailOf(signer: Signer, v: SignerFieldValues): string {
  const parts = Object.entries(v.values).map(([id, x]) => `${id}=${JSON.stringify(x).slice(0, 80)}`);
  for (const t of ['signature', 'initials'] as const) {
    const m = v[t];
    if (m) parts.push(`${t}=${m.kind === 'typed' ? `typed ${JSON.stringify(m.text)}` : `drawn sha256:${m.sha256.slice(0, 16)}`}`);
  }
  return `${signer.email} filled their fields: ${parts.join(', ') || 'no values'}`.slice(0, 2000);
}

function applyValues(state: TxState, index: number, values: SignerFieldValues, at: Date): Change {
  const s = state.signers[index]!;
  if (!OPEN_STATES.includes(s.state)) throw fieldsClosed(s.state);
  return {
    signers: state.signers.map((x) => (x.index === index ? { ...x, fields: values } : x)),
    status: state.status,
    log: [{ type: 'fields_submitted', at, actor: 'signer', detail: trailOf(s, values) }],
    nowVerified: false,
  };
}

/**
 * The signer submits their fields' values (PUT /api/sign/{token}/fields): checked against their own
 * fields (domain/field-values.ts) before anything changes, kept on the signer record in one write
 * with its audit-trail entry; open until a capture of theirs was accepted (FIELDS_CLOSED after).
 */
export async function submitSignerFields(
  deps: SignerFieldsDeps,
  token: string,
  sub: Submission,
): Promise<{ rec: TransactionRecord; signer: Signer }> {
  try {
    const { rec, signer } = await resolveSigningToken(deps, token);
    const fields: FormField[] = rec.form_fields ?? [];
    if (!OPEN_STATES.includes(signer.state)) throw fieldsClosed(signer.state);
    const values = checkSubmission(fields, signer, sub, deps.clock());
    const updated = await applyChange(deps, { id: rec._id }, (state, now) => applyValues(state, signer.index, values, now));
    // null only when the record vanished between the two reads: the link no longer works.
    if (!updated) throw signingTokenNotFound();
    deps.tm.fieldSubmissions.inc({ outcome: 'accepted' });
    return { rec: updated, signer: updated.signers[signer.index]! };
  } catch (err) {
    if (err instanceof DomainError && err.reason === 'FIELDS_CLOSED') deps.tm.fieldSubmissions.inc({ outcome: 'closed' });
    else if (err instanceof DomainError && err.reason === 'INVALID_FIELD') deps.tm.fieldSubmissions.inc({ outcome: 'invalid' });
    throw err;
  }
}
