import { invalid } from '@signet/kit';
import { notPending, testAlreadyCompleted, transactionNotFound } from '../domain/errors.js';
import { deriveStatus, isPending, type Change, type TxState } from '../domain/transaction.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

export const TEST_OUTCOMES = ['verified', 'failed'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

/**
 * What a test completion changes, from the state read: `verified` passes every signer still to pass
 * (assurance `test`: no ceremony ran), so the verification event goes out and the ledger's test log
 * seals the certificate; `failed` fails the first signer not yet passed. Only a pending transaction
 * with a signer still to pass: a second completion is a conflict, and the log never holds two outcomes.
 */
export function testCompletion(state: TxState, outcome: TestOutcome, at: Date): Change {
  if (!isPending(state.status)) throw notPending('complete', state.status);
  const wasAllPassed = state.signers.every((s) => s.state === 'passed');
  // One outcome per transaction: after `verified` (sealing still under way, so still pending) a second
  // completion, either outcome, would log a contradiction; `failed` ends the transaction (above).
  if (wasAllPassed) throw testAlreadyCompleted(state.status);
  const firstOpen = state.signers.find((s) => s.state !== 'passed');
  const signers = state.signers.map((s) => {
    if (s.state === 'passed') return s;
    if (outcome === 'verified') return { ...s, state: 'passed' as const, verified_at: at, assurance: 'test' };
    return s.index === firstOpen?.index ? { ...s, state: 'failed' as const, attempts_left: 0 } : s;
  });
  const allPassed = signers.every((s) => s.state === 'passed');
  return {
    signers,
    status: deriveStatus(signers, state.certificate_issued),
    log: [
      {
        type: outcome === 'verified' ? 'test_completed_verified' : 'test_completed_failed',
        at,
        actor: 'sender',
        detail: `test mode: completed as ${outcome} without a ceremony`,
      },
    ],
    nowVerified: allPassed,
    statusActor: 'sender',
  };
}

/**
 * POST /api/transactions/{id}/test/complete (test keys only): drives the owner's pending *test*
 * transaction to an outcome. A live transaction (or another owner's) is NOT_FOUND, as the route is
 * for a live key.
 */
export async function completeTestTransaction(
  deps: ChangeDeps,
  req: { ownerId: string; id: number; outcome: string },
): Promise<TransactionRecord> {
  if (!req.ownerId) throw invalid('owner_id is required');
  if (!(TEST_OUTCOMES as readonly string[]).includes(req.outcome))
    throw invalid(`outcome must be one of ${TEST_OUTCOMES.join(', ')}`);
  const rec = await applyChange(deps, { id: req.id, ownerId: req.ownerId, test: true }, (s, now) =>
    testCompletion(s, req.outcome as TestOutcome, now),
  );
  if (!rec) throw transactionNotFound();
  return rec;
}
