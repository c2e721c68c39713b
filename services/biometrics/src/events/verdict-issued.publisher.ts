import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { VerdictOutcome } from '../domain/verdict.js';

/** The `biometrics.verdict.issued` outbox entry, written with the analysis record that holds the verdict. */
export function verdictIssuedEvent(p: {
  transactionId: number;
  signerIndex: number;
  captureId: string;
  attempt: number;
  outcome: VerdictOutcome;
  failedChecks: string[];
  models: string[];
  assurance: 'live' | 'recorded';
}): OutboxEntry {
  return outboxEvent(events.verdictIssued, (m) => ({ eventId: m.event_id, occurredAt: m.occurred_at, ...p }));
}
