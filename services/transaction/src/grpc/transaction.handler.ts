import type { ServerWritableStream } from '@grpc/grpc-js';
import { invalid, outboxEvent, toServiceError, type KeyedLock, type Logger, type OutboxRelay } from '@signet/kit';
import { eventsV1, type transactionV1 } from '@signet/proto';
import { notPending, resendTooSoon, signingTokenNotFound, transactionNotFound } from '../domain/errors.js';
import { isPending, STATUSES, type Status } from '../domain/transaction.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';
import { linkMailRequest } from '../events/link-mail.consumer.js';
import { toDetail, toSummary } from './mappers.js';

export const RESEND_INTERVAL_MS = 60_000;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_QUERY = 100;

type Deps = {
  repo: TransactionRepository;
  tm: TransactionMetrics;
  logger: Logger;
  cfg: { PUBLIC_BASE_URL: string };
  lock: KeyedLock<number>;
  outbox: OutboxRelay<number>;
};

const encodeCursor = (id: number) => Buffer.from(`id:${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^id:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalid('cursor is not valid');
  return Number(m[1]);
}

export function transactionHandlers(deps: Deps) {
  const { repo } = deps;
  const owned = async (ownerId: string, id: number): Promise<TransactionRecord> => {
    if (!ownerId) throw invalid('owner_id is required');
    const rec = id > 0 ? await repo.findOwned(ownerId, id) : null;
    if (!rec) throw transactionNotFound();
    return rec;
  };

  return {
    async listTransactions(req: transactionV1.ListTransactionsRequest): Promise<transactionV1.ListTransactionsResponse> {
      if (!req.ownerId) throw invalid('owner_id is required');
      if (req.limit < 0 || req.limit > MAX_LIMIT) throw invalid(`limit must be between 1 and ${MAX_LIMIT}`);
      const limit = req.limit || DEFAULT_LIMIT;
      const before = req.cursor ? decodeCursor(req.cursor) : undefined;
      if (req.status && !(STATUSES as readonly string[]).includes(req.status))
        throw invalid(`status must be one of ${STATUSES.join(', ')}`);
      const query = req.query.trim();
      if (query.length > MAX_QUERY) throw invalid(`query must be at most ${MAX_QUERY} characters`);
      const recs = await repo.list(req.ownerId, limit + 1, before, {
        ...(req.status ? { status: req.status as Status } : {}),
        ...(query ? { query } : {}),
      });
      const page = recs.slice(0, limit);
      return { items: page.map(toSummary), nextCursor: recs.length > limit ? encodeCursor(page.at(-1)!._id) : '' };
    },

    async getTransaction(req: transactionV1.GetTransactionRequest): Promise<transactionV1.TransactionDetail> {
      const rec = await owned(req.ownerId, Number(req.id));
      return toDetail(rec, await deps.repo.linkMailsOf(rec._id));
    },

    /**
     * Re-sends the link to every signer still to sign; non-terminal only, once a minute per transaction.
     * The reminder is requested on the outbox in the same update (round = the version it writes) and
     * mailed by the link-mail consumer, like the invitation.
     */
    async resendTransaction(req: transactionV1.TransactionActionRequest): Promise<transactionV1.TransactionSummary> {
      const id = Number(req.id);
      const updated = await deps.lock(id, async () => {
        for (let i = 0; i < 5; i++) {
          const rec = await owned(req.ownerId, Number(req.id));
          if (!isPending(rec.status)) throw notPending('resend', rec.status);
          const now = Date.now();
          const last = rec.last_resent_at ? new Date(rec.last_resent_at).getTime() : 0;
          if (now - last < RESEND_INTERVAL_MS) {
            deps.tm.resends.inc({ result: 'rate_limited' });
            throw resendTooSoon(Math.ceil((RESEND_INTERVAL_MS - (now - last)) / 1000));
          }
          const to = rec.signers.filter((s) => s.state !== 'passed' && s.state !== 'failed');
          const updated = await repo.update(
            rec,
            { last_resent_at: new Date(now) },
            [
              {
                type: 'link_resent',
                at: new Date(now),
                actor: 'sender',
                detail: `signing link to be sent again to ${to.map((s) => s.email).join(', ')}`,
              },
            ],
            [
              linkMailRequest(
                rec,
                'reminder',
                rec.version + 1,
                to.map((s) => s.index),
              ),
            ],
          );
          if (!updated) continue;
          await deps.outbox.flush(rec._id);
          return updated;
        }
        throw new Error('resend lost too many races');
      });
      deps.tm.resends.inc({ result: 'sent' });
      return toSummary(updated);
    },

    /** Cancels a pending transaction; its signing tokens stop resolving at once (status is checked on every resolve). */
    async cancelTransaction(req: transactionV1.TransactionActionRequest): Promise<transactionV1.TransactionSummary> {
      return deps.lock(Number(req.id), async () => {
        for (let i = 0; i < 5; i++) {
          const rec = await owned(req.ownerId, Number(req.id));
          if (!isPending(rec.status)) throw notPending('cancel', rec.status);
          const at = new Date();
          const updated = await repo.update(
            rec,
            { status: 'cancelled' },
            [
              { type: 'cancelled', at, actor: 'sender', detail: 'cancelled by the sender; signing links no longer work' },
              { type: 'status_changed', at, actor: 'sender', detail: `${rec.status} → cancelled` },
            ],
            [
              outboxEvent('signet.transaction.status.changed', (m) =>
                eventsV1.TransactionStatusChanged.encode({
                  eventId: m.event_id,
                  occurredAt: m.occurred_at,
                  transactionId: rec._id,
                  from: rec.status,
                  to: 'cancelled',
                }).finish(),
              ),
            ],
          );
          if (!updated) continue;
          deps.tm.transitions.inc({ to: 'cancelled' });
          await deps.outbox.flush(rec._id);
          return toSummary(updated);
        }
        throw new Error('cancel lost too many races');
      });
    },

    async resolveSigningToken(req: transactionV1.ResolveSigningTokenRequest): Promise<transactionV1.SigningContext> {
      if (!/^[A-Za-z0-9_-]{16,128}$/.test(req.token)) throw signingTokenNotFound();
      const t = await repo.resolveToken(req.token);
      const rec = t ? await repo.findById(t.transaction_id) : null;
      const signer = rec?.signers[t!.signer_index];
      if (!rec || !signer || signer.token !== req.token || !isPending(rec.status)) throw signingTokenNotFound();
      return {
        transactionId: rec._id,
        signerIndex: signer.index,
        signerName: signer.name,
        signerEmail: signer.email,
        signerState: signer.state,
        transactionStatus: rec.status,
        documentName: rec.document_name,
        documentSha256: rec.document_sha256,
        documentKey: rec.document_key,
        referenceKey: signer.index === 0 ? rec.reference_key : '',
        attestationType: rec.attestation_type,
        issuerName: rec.issuer_name,
        verificationMode: signer.verification_mode,
        attemptsLeft: signer.attempts_left,
      };
    },
  };
}

/** ExportTransactions (server streaming): one summary per message from a database cursor, honouring backpressure. */
export function exportHandler(deps: Pick<Deps, 'repo' | 'logger'>) {
  return async (call: ServerWritableStream<transactionV1.ExportTransactionsRequest, transactionV1.TransactionSummary>) => {
    try {
      if (!call.request.ownerId) throw invalid('owner_id is required');
      const cursor = deps.repo.cursor(call.request.ownerId);
      let aborted = false;
      call.on('cancelled', () => {
        aborted = true;
      });
      for await (const rec of cursor) {
        if (aborted) break;
        if (!call.write(toSummary(rec as TransactionRecord))) await new Promise((r) => call.once('drain', r));
      }
      await cursor.close();
      call.end();
    } catch (err) {
      deps.logger.error({ err }, 'export failed');
      call.emit('error', toServiceError(err));
    }
  };
}
