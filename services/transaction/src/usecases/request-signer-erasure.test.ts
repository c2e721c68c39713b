import { describe, expect, it } from 'vitest';
import { DomainError, type Mail } from '@signet/kit';
import type { ErasureRequest } from '../domain/retention.js';
import type { ErasureRequestRepository, ErasureSubject } from '../store/erasure-request.repository.js';
import { requestSignerErasure, type SignerErasureDeps } from './request-signer-erasure.js';

/** An in-memory record behind the repository's three calls (the real one is exercised end to end in signed-pdf.test.ts). */
function setup(mailFails: () => boolean) {
  const rec = {
    _id: 7,
    owner_id: 'u1',
    reference: 'SIG-TX-00000007',
    status: 'ledger_issued',
    signers: [{ name: 'Jan', email: 'jan@example.com' }],
    issuer_name: 'Acme',
    document_name: 'Deal.pdf',
    sender_email: 'sender@example.com',
    biometrics_delete_after: new Date('2026-04-01T00:00:00Z'),
    biometrics_erased_at: null,
    erasure_request: null as ErasureRequest | null,
  } as unknown as ErasureSubject;
  const sent: Mail[] = [];
  const requests: ErasureRequestRepository = {
    find: async () => structuredClone(rec),
    record: async (_id, request, deleteAfter) => {
      if (rec.erasure_request) return false;
      rec.erasure_request = request;
      rec.biometrics_delete_after = deleteAfter;
      return true;
    },
    markSenderNotified: async (_id, at) => {
      rec.erasure_request!.sender_notified_at = at;
    },
  };
  const deps: SignerErasureDeps = {
    requests,
    mailer: {
      send: async (m: Mail) => {
        if (mailFails()) throw new Error('smtp down');
        sent.push(m);
      },
    } as SignerErasureDeps['mailer'],
    tm: { mails: { inc: () => {} } } as unknown as SignerErasureDeps['tm'],
    logger: { info: () => {}, warn: () => {} } as unknown as SignerErasureDeps['logger'],
    cfg: { PUBLIC_BASE_URL: 'https://signet.example' },
    noticeMs: 7 * 86_400_000,
    clock: () => new Date('2026-03-01T12:00:00Z'),
  };
  return { rec, sent, deps };
}

const req = { transactionId: 7, reference: 'SIG-TX-00000007', signerIndex: 0 };

describe("a signer's erasure request", () => {
  it('records once and mails the sender once, whatever the number of presses', async () => {
    const { sent, deps } = setup(() => false);
    const a = await requestSignerErasure(deps, req);
    const b = await requestSignerErasure(deps, req);
    expect(a.due.toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(b.due.toISOString()).toBe(a.due.toISOString());
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('sender@example.com');
  });

  it('under a legal hold: recorded, and the sender is told the erasure waits for the release', async () => {
    const { rec, sent, deps } = setup(() => false);
    (rec as { legal_hold: unknown }).legal_hold = { since: new Date('2026-02-10T00:00:00Z'), reason: 'court', by: 'sender' };
    await requestSignerErasure(deps, req);
    expect(rec.erasure_request).not.toBeNull();
    expect(sent[0]!.text).toContain('on legal hold since 2026-02-10');
    expect(sent[0]!.text).toContain('erased once you release it');
    expect(sent[0]!.text).not.toContain('It will be erased on');
  });

  it('answers a retryable error when the notice cannot be mailed, and the next press mails it', async () => {
    let down = true;
    const { rec, sent, deps } = setup(() => down);
    const err = await requestSignerErasure(deps, req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable');
    expect(rec.erasure_request?.sender_notified_at).toBeNull();
    down = false;
    await requestSignerErasure(deps, req);
    expect(sent).toHaveLength(1);
    expect(rec.erasure_request?.sender_notified_at).toBeInstanceOf(Date);
  });

  it('refuses another reference, a signer who is not there, and a pending transaction as no such link', async () => {
    const { rec, deps } = setup(() => false);
    for (const bad of [
      { ...req, reference: 'SIG-TX-00000008' },
      { ...req, signerIndex: 3 },
      { ...req, signerIndex: -1 },
    ])
      await expect(requestSignerErasure(deps, bad)).rejects.toMatchObject({ kind: 'not_found' });
    (rec as { status: string }).status = 'consent_accepted';
    await expect(requestSignerErasure(deps, req)).rejects.toMatchObject({ kind: 'not_found' });
    expect(rec.erasure_request).toBeNull();
  });
});
