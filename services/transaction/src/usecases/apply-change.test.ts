import { describe, expect, it } from 'vitest';
import { DomainError, type OutboxEntry } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { newSigner, type Signer, type Status } from '../domain/transaction.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import { acceptCapture } from './accept-capture.js';
import { acceptConsent } from './accept-consent.js';
import { applyChange, type ChangeDeps } from './apply-change.js';
import { applyVerdict } from './apply-verdict.js';
import { cancelTransaction } from './cancel-transaction.js';
import { resendLinks } from './resend-links.js';

const OWNER = 'u1';
const signer = (index: number, over: Partial<Signer> = {}): Signer => ({
  ...newSigner(index, `s${index}`, `s${index}@example.com`, `t${index}`, 3, { mode: index === 0 ? 'biometric' : 'liveness' }),
  ...over,
});
function record(status: Status, signers: Signer[]): TransactionRecord {
  return {
    _id: 7,
    owner_id: OWNER,
    issuer_name: 'Acme',
    reference: 'SIG-TX-00000007',
    status,
    attestation_type: 'signature',
    document_name: 'c.pdf',
    document_key: 'd',
    document_sha256: 'a'.repeat(64),
    document_size: 1,
    reference_key: 'r',
    reference_sha256: 'b'.repeat(64),
    commitment_salt: 'salt',
    signers,
    log: [],
    certificate_issued: false,
    created_at: new Date('2026-01-01T00:00:00Z'),
    verified_at: null,
    last_resent_at: null,
    version: 4,
  };
}

/**
 * An in-memory store with the real write rule (conditional on status and version), a lock that runs
 * one at a time, and a relay that records what was flushed. `races` writers get in before this one.
 */
function setup(rec: TransactionRecord, opts: { races?: number } = {}) {
  let stored = structuredClone(rec);
  let races = opts.races ?? 0;
  const written: OutboxEntry[][] = [];
  const flushed: number[] = [];
  const transitions: string[] = [];
  const resends: string[] = [];
  let now = new Date('2026-01-02T10:00:00Z');
  const deps: ChangeDeps & { tm: Pick<TransactionMetrics, 'transitions' | 'resends'> } = {
    repo: {
      findById: async (id) => (id === stored._id ? structuredClone(stored) : null),
      findOwned: async (owner, id) => (id === stored._id && owner === stored.owner_id ? structuredClone(stored) : null),
      update: async (from, set, log, outbox) => {
        if (races > 0) {
          races--;
          stored = { ...stored, version: stored.version + 1 };
        }
        if (from._id !== stored._id || from.status !== stored.status || from.version !== stored.version) return null;
        stored = { ...stored, ...set, log: [...stored.log, ...log], version: stored.version + 1 };
        written.push(outbox);
        return structuredClone(stored);
      },
    },
    tm: {
      transitions: { inc: (l) => void transitions.push(l.to!) },
      resends: { inc: (l) => void resends.push(l.result!) },
    },
    lock: (_id, fn) => fn(),
    outbox: { flush: async (id) => void flushed.push(id) },
    clock: () => now,
  };
  return {
    deps,
    stored: () => stored,
    written,
    flushed,
    transitions,
    resends,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
  };
}

const subjects = (entries: OutboxEntry[]) => entries.map((e) => e.subject);
const statusEvent = (e: OutboxEntry) => eventsV1.TransactionStatusChanged.decode(e.payload);

describe('applyChange: every transition is one conditional write with its events', () => {
  it('consent: signer and status change written with their log entries and events, published under the lock', async () => {
    const t = setup(record('created', [signer(0), signer(1)]));
    await acceptConsent(t.deps, { transactionId: 7, signerIndex: 1 });
    expect(t.stored()).toMatchObject({ status: 'consent_accepted', version: 5 });
    expect(t.stored().signers.map((s) => s.state)).toEqual(['created', 'consent_accepted']);
    expect(t.stored().log.map((e) => [e.type, e.actor])).toEqual([
      ['consent_accepted', 'signer:1'],
      ['status_changed', 'system'],
    ]);
    expect(t.written).toHaveLength(1);
    expect(subjects(t.written[0]!)).toEqual([events.signerStateChanged.subject, events.transactionStatusChanged.subject]);
    expect(eventsV1.SignerStateChanged.decode(t.written[0]![0]!.payload)).toMatchObject({
      transactionId: 7,
      signerIndex: 1,
      from: 'created',
      to: 'consent_accepted',
      attemptsLeft: 3,
    });
    expect(statusEvent(t.written[0]![1]!)).toMatchObject({ from: 'created', to: 'consent_accepted' });
    expect(t.flushed).toEqual([7]);
    expect(t.transitions).toEqual(['consent_accepted']);
  });

  it('a trigger the state machine refuses writes nothing and announces nothing', async () => {
    const t = setup(record('created', [signer(0)]));
    // A capture without a live challenge (the signer has not consented).
    await acceptCapture(t.deps, 7, { index: 0, capture_id: 'c', attempt: 1, video_sha256: 'v', frame_sha256: 'f' });
    expect(t.stored()).toEqual(record('created', [signer(0)]));
    expect(t.written).toEqual([]);
    expect(t.flushed).toEqual([]);
    expect(t.transitions).toEqual([]);
  });

  it('the last PASS announces the verification, with commitments instead of the media hashes', async () => {
    const t = setup(
      record('capture_accepted', [
        signer(0, { state: 'passed', video_sha256: 'v0', frame_sha256: 'f0' }),
        signer(1, { state: 'capture_accepted', capture_id: 'c1', video_sha256: 'v1', frame_sha256: 'f1' }),
      ]),
    );
    await applyVerdict(t.deps, 7, { index: 1, capture_id: 'c1', outcome: 'PASS', failed_checks: [] });
    expect(subjects(t.written[0]!)).toEqual([events.signerStateChanged.subject, events.transactionVerified.subject]);
    const verified = eventsV1.TransactionVerified.decode(t.written[0]![1]!.payload);
    expect(verified).toMatchObject({ transactionId: 7, reference: 'SIG-TX-00000007', ownerId: OWNER });
    expect(verified.signers).toHaveLength(2);
    expect(verified.signers[1]!.videoSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(verified.signers[1]!.videoSha256).not.toBe('v1');
    expect(t.stored().verified_at).toEqual(new Date('2026-01-02T10:00:00Z'));
    expect(t.transitions).toEqual([]); // every signer passed, but no certificate yet: still capture_accepted
  });

  it('a lost race re-reads and recomputes; too many give up without writing', async () => {
    const t = setup(record('created', [signer(0)]), { races: 2 });
    await acceptConsent(t.deps, { transactionId: 7, signerIndex: 0 });
    expect(t.stored()).toMatchObject({ status: 'consent_accepted', version: 7 });
    expect(t.written).toHaveLength(1);
    const lost = setup(record('created', [signer(0)]), { races: 100 });
    await expect(acceptConsent(lost.deps, { transactionId: 7, signerIndex: 0 })).rejects.toMatchObject({
      name: 'ContentionError',
      kind: 'unavailable',
      reason: 'CONTENTION',
    });
    expect(lost.written).toEqual([]);
  });

  it('an unknown transaction is nothing to apply for an event, NOT_FOUND for an owner', async () => {
    const t = setup(record('created', [signer(0)]));
    expect(await applyChange(t.deps, { id: 8 }, () => null)).toBeNull();
    await expect(cancelTransaction(t.deps, { ownerId: 'someone-else', id: 7 })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(cancelTransaction(t.deps, { ownerId: '', id: 7 })).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(t.written).toEqual([]);
  });
});

describe('cancel goes through the state machine', () => {
  it('cancels a pending transaction: status, log by the sender, one status event, counted', async () => {
    const t = setup(record('consent_accepted', [signer(0, { state: 'consent_accepted' })]));
    const rec = await cancelTransaction(t.deps, { ownerId: OWNER, id: 7 });
    expect(rec.status).toBe('cancelled');
    expect(t.stored().log.map((e) => [e.type, e.actor, e.detail])).toEqual([
      ['cancelled', 'sender', 'cancelled by the sender; signing links no longer work'],
      ['status_changed', 'sender', 'consent_accepted → cancelled'],
    ]);
    expect(subjects(t.written[0]!)).toEqual([events.transactionStatusChanged.subject]);
    expect(statusEvent(t.written[0]![0]!)).toMatchObject({ transactionId: 7, from: 'consent_accepted', to: 'cancelled' });
    expect(t.transitions).toEqual(['cancelled']);
    expect(t.flushed).toEqual([7]);
  });

  it.each(['ledger_issued', 'failed', 'cancelled'] as const)('refuses to cancel a transaction that is %s', async (status) => {
    const t = setup(record(status, [signer(0, { state: status === 'failed' ? 'failed' : 'passed' })]));
    const before = t.stored();
    const err = await cancelTransaction(t.deps, { ownerId: OWNER, id: 7 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      kind: 'conflict',
      reason: 'TRANSACTION_NOT_PENDING',
      message: `cannot cancel a transaction that is ${status}`,
    });
    expect(t.stored()).toEqual(before);
    expect(t.written).toEqual([]);
    expect(t.transitions).toEqual([]);
  });
});

describe('resend goes through the state machine', () => {
  it('requests a reminder for the signers still to sign, in the same write, once a minute', async () => {
    const t = setup(
      record('capture_accepted', [
        signer(0, { state: 'passed' }),
        signer(1, { state: 'capture_accepted', capture_id: 'c' }),
        signer(2, { state: 'consent_accepted' }),
      ]),
    );
    const rec = await resendLinks(t.deps, { ownerId: OWNER, id: 7 });
    expect(rec).toMatchObject({ status: 'capture_accepted', version: 5, last_resent_at: new Date('2026-01-02T10:00:00Z') });
    expect(t.stored().log.map((e) => [e.type, e.detail])).toEqual([
      ['link_resent', 'signing link to be sent again to s1@example.com, s2@example.com'],
    ]);
    expect(subjects(t.written[0]!)).toEqual([events.linksRequested.subject]);
    // round = the version the update wrote, so each resend is a mail of its own
    expect(eventsV1.SigningLinksRequested.decode(t.written[0]![0]!.payload)).toMatchObject({
      transactionId: 7,
      reference: 'SIG-TX-00000007',
      kind: 'reminder',
      round: 5,
      signerIndexes: [1, 2],
    });
    expect(t.transitions).toEqual([]);
    expect(t.resends).toEqual(['sent']);

    t.advance(45_000);
    await expect(resendLinks(t.deps, { ownerId: OWNER, id: 7 })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 15,
    });
    expect(t.written).toHaveLength(1);
    expect(t.resends).toEqual(['sent', 'rate_limited']);

    t.advance(15_000);
    await resendLinks(t.deps, { ownerId: OWNER, id: 7 });
    expect(eventsV1.SigningLinksRequested.decode(t.written[1]![0]!.payload).round).toBe(6);
  });

  it('refuses to resend for a finished transaction', async () => {
    const t = setup(record('ledger_issued', [signer(0, { state: 'passed' })]));
    await expect(resendLinks(t.deps, { ownerId: OWNER, id: 7 })).rejects.toMatchObject({
      reason: 'TRANSACTION_NOT_PENDING',
      message: 'cannot resend a transaction that is ledger_issued',
    });
    expect(t.written).toEqual([]);
    expect(t.resends).toEqual([]);
  });
});
