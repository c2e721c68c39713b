import { describe, expect, it, vi } from 'vitest';
import { events, eventsV1 } from '@signet/proto';
import { certificateLeaf } from '@signet/verify';
import type { Certificate } from '../domain/certificate.js';
import type { CertificateRecord } from '../store/certificate.repository.js';
import type { OutboxEntry } from '@signet/kit';
import { testCertificate } from '../../test/fixtures/certificate.js';
import { issueCertificate } from './issue-certificate.js';

const cert = (over: Partial<Certificate> = {}) => testCertificate('ACME-TX-00000001', over);

function setup(opts: { existingLeaf?: Buffer; insertWins?: boolean } = {}) {
  const records = new Map<string, { rec: CertificateRecord; outbox: OutboxEntry[] }>();
  const claims: string[] = [];
  const counted: string[] = [];
  const levels: string[] = [];
  let issuedCalls = 0;
  const deps = {
    certs: {
      async findByReference(ref: string) {
        return records.get(ref)?.rec ?? null;
      },
      async insertOnce(rec: CertificateRecord, outbox: OutboxEntry[]) {
        if (opts.insertWins === false || records.has(rec.reference)) return false;
        records.set(rec.reference, { rec, outbox });
        return true;
      },
    },
    log: {
      async claim(reference: string, leaf: Buffer) {
        claims.push(reference);
        const bytes = opts.existingLeaf ?? leaf;
        return { index: 7, reference, hash: Buffer.alloc(32), leaf: bytes.toString('utf8'), seal: 'v1.seal' };
      },
    },
    metrics: {
      certificatesIssued: { inc: (l: Partial<Record<'result', string>>) => void counted.push(l.result!) },
      certificatesByAssurance: { inc: (l: Partial<Record<'assurance', string>>) => void levels.push(l.assurance!) },
    },
    logger: { info: () => undefined, error: () => undefined },
    onIssued: () => void issuedCalls++,
  };
  return { deps, records, claims, counted, levels, issuedCalls: () => issuedCalls };
}

const issue = (deps: ReturnType<typeof setup>['deps'], c: Certificate) =>
  issueCertificate(deps, { eventId: 'e1', transactionId: 42, certificate: c });

describe('issueCertificate', () => {
  it('claims a leaf and inserts the certificate with its index, seal and certificate.issued event', async () => {
    const s = setup();
    expect(await issue(s.deps, cert())).toBe('issued');
    const { rec, outbox } = s.records.get('ACME-TX-00000001')!;
    expect(rec).toMatchObject({ transaction_id: 42, leaf_index: 7, ledger_seal: 'v1.seal', source_event_id: 'e1' });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.subject).toBe(events.certificateIssued.subject);
    expect(eventsV1.CertificateIssued.decode(outbox[0]!.payload)).toMatchObject({
      transactionId: 42,
      reference: 'ACME-TX-00000001',
      leafIndex: 7,
      ledgerSeal: 'v1.seal',
    });
    expect(s.counted).toEqual(['issued']);
    expect(s.issuedCalls()).toBe(1);
  });

  it('after a crash between claim and insert, issues from the leaf the log holds, not from the new event', async () => {
    const first = cert({ issuer_name: 'Acme (as first claimed)' });
    const s = setup({ existingLeaf: certificateLeaf(first) });
    await issue(s.deps, cert());
    expect(s.records.get('ACME-TX-00000001')!.rec.certificate.issuer_name).toBe('Acme (as first claimed)');
  });

  it('issues nothing twice: an existing certificate is a duplicate (its claim gets the same leaf back, nothing is looked up first); a lost insert race is one too', async () => {
    const s = setup();
    const lookups = vi.spyOn(s.deps.certs, 'findByReference');
    await issue(s.deps, cert());
    expect(await issue(s.deps, cert())).toBe('duplicate');
    expect(s.records.size).toBe(1);
    expect(s.counted).toEqual(['issued', 'duplicate']);
    // counted by what it proves once, when issued (the fixture's one signer is live)
    expect(s.levels).toEqual(['live']);
    expect(lookups).not.toHaveBeenCalled();
    expect(s.issuedCalls()).toBe(2);
    const race = setup({ insertWins: false });
    expect(await issue(race.deps, cert())).toBe('duplicate');
    expect(race.counted).toEqual(['duplicate']);
  });

  it('rejects a malformed fact without claiming a leaf', async () => {
    for (const bad of [
      cert({ reference: 'acme-tx-1' }),
      cert({ document_sha256: cert().document_sha256.toUpperCase() }),
      cert({ document_sha256: cert().document_sha256.slice(2) }),
      cert({ signers: [] }),
    ]) {
      const s = setup();
      expect(await issue(s.deps, bad)).toBe('rejected');
      expect(s.claims).toEqual([]);
      expect(s.records.size).toBe(0);
      expect(s.counted).toEqual(['rejected']);
      expect(s.issuedCalls()).toBe(0);
    }
  });
});
