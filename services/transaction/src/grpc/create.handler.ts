import { status, type ServerReadableStream, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import { nulRefusal, RpcError, toServiceError, type Metrics } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';
import type { TransactionMetrics } from '../metrics.js';
import { createTransaction, type CreateDeps, type CreationPart } from '../usecases/create-transaction.js';

/** A Buffer view of the decoded bytes, without copying them. */
const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

type Result = transactionV1.CreateTransactionResult;

/** The creation outcome counted in signet_transaction_creations_total. */
function outcomeOf(err: unknown): string {
  if (err instanceof RpcError) return err.reason === 'QUOTA_EXHAUSTED' ? 'quota_exhausted' : 'upstream_error';
  const reason = (err as { reason?: string }).reason;
  if (reason === 'PAYLOAD_TOO_LARGE') return 'too_large';
  if (reason === 'INVALID_FIELD' || reason === 'INVALID_ARGUMENT') return 'invalid';
  if (reason === 'CANCELLED') return 'aborted';
  if (reason?.startsWith('IDEMPOTENCY')) return 'idempotency_conflict';
  return 'error';
}

/** The stream's messages as creation parts (empty messages are skipped). */
async function* creationParts(call: AsyncIterable<transactionV1.CreateTransactionChunk>): AsyncIterable<CreationPart> {
  for await (const msg of call) {
    const part = msg.part;
    if (!part) continue;
    // The kit refuses U+0000 in unary requests; a stream's text parts are checked here (bytes are skipped).
    const refused = nulRefusal(part.value);
    if (refused) throw refused;
    switch (part.$case) {
      case 'begin':
        yield {
          kind: 'begin',
          begin: {
            ownerId: part.value.ownerId,
            orgName: part.value.orgName,
            idempotencyKey: part.value.idempotencyKey,
            test: part.value.test,
            senderEmail: part.value.senderEmail,
            ...(part.value.createdBy ? { createdBy: part.value.createdBy } : {}),
          },
        };
        break;
      case 'document':
        yield { kind: 'document', bytes: asBuffer(part.value) };
        break;
      case 'reference':
        yield { kind: 'reference', bytes: asBuffer(part.value) };
        break;
      case 'signerReference':
        yield { kind: 'signer_reference', signer: part.value.signer, bytes: asBuffer(part.value.data) };
        break;
      case 'fields':
        yield {
          kind: 'fields',
          fields: {
            signerName: part.value.signerName,
            signerEmail: part.value.signerEmail,
            signerEmails: part.value.signerEmails,
            attestationType: part.value.attestationType,
            documentName: part.value.documentName,
            signers: part.value.signers.map((p) => ({
              name: p.name,
              email: p.email,
              role: p.role,
              order: p.order,
              verification: p.verification,
              webauthn: p.webauthn,
              requiredAssurance: p.requiredAssurance,
              locale: p.locale,
            })),
            requiredAssurance: part.value.requiredAssurance,
            signerLocale: part.value.signerLocale,
            formFields: part.value.formFields,
            lifecycle: {
              expiresAt: part.value.expiresAt,
              reminderFirstAfterSeconds: part.value.reminderFirstAfterSeconds,
              reminderEverySeconds: part.value.reminderEverySeconds,
              reminderMax: part.value.reminderMax,
            },
          },
        };
        break;
    }
  }
}

/**
 * CreateTransaction (client streaming): maps the chunks, calls the creation use case, and counts the
 * outcome and duration. A client that cancels aborts the stream; the use case then cleans up.
 */
export function createTransactionHandler(deps: CreateDeps & { metrics: Metrics; tm: TransactionMetrics }) {
  const outcomes = deps.tm.creations;
  return (call: ServerReadableStream<transactionV1.CreateTransactionChunk, Result>, callback: sendUnaryData<Result>) => {
    const end = deps.metrics.grpcServerDuration.startTimer({
      method: 'signet.transaction.v1.TransactionService/CreateTransaction',
    });
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
      call.destroy(new Error('cancelled by the client'));
    });
    createTransaction(deps, creationParts(call), () => cancelled).then(
      (res) => {
        outcomes.inc({ outcome: res.replayed ? 'replayed' : 'created' });
        end({ code: 'OK' });
        callback(null, res);
      },
      (err: unknown) => {
        const outcome = cancelled ? 'aborted' : outcomeOf(err);
        outcomes.inc({ outcome });
        const se = toServiceError(err);
        end({ code: status[se.code ?? status.INTERNAL] });
        if (outcome === 'error' || outcome === 'upstream_error') deps.logger.error({ err }, 'transaction creation failed');
        callback(se as ServiceError, null);
      },
    );
  };
}
