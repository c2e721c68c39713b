import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { RetimestampRecord } from '../store/retimestamp.repository.js';
import { TsaUnavailableError } from '../tsa/tsa.client.js';
import { retimestampSignedPdfs, SHORT_RENEWAL_WAIT_MS, type RetimestampDeps } from './retimestamp-signed-pdfs.js';

// The PDF's timestamps are read by timestampExpiry: here a fake reads the expiry the "PDF" names.
vi.mock('../pdf/doc-timestamp.js', () => ({
  timestampExpiry: (pdf: Buffer) => (pdf.length ? new Date(pdf.toString().split('|').at(-1)!) : null),
}));

const DAY = 86_400_000;
const now = new Date('2030-01-01T00:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

function fakes(opts: { due: RetimestampRecord[]; renewedOk?: boolean; archive?: (pdf: Buffer) => Promise<Buffer> }) {
  const store = new Map<string, Buffer>(opts.due.map((r) => [r.object_key, Buffer.from(`pdf|${at(10 * DAY)}`)]));
  const due = [...opts.due];
  const calls = { renewed: [] as unknown[], failed: [] as [string, Date, number][], removed: [] as string[] };
  const deps: RetimestampDeps = {
    records: {
      claimUnread: async () => null,
      claimDue: async () => due.shift() ?? null,
      schedule: async () => undefined,
      renewed: async (_rec, next) => {
        calls.renewed.push(next);
        return opts.renewedOk ?? true;
      },
      failed: async (ref, retryAt, failures) => void calls.failed.push([ref, retryAt, failures]),
      earliestExpiry: async () => null,
    },
    objects: {
      openSigned: async (key) => Readable.from([store.get(key)!]),
      putSigned: async (key, pdf) => void store.set(key, pdf),
      removeSigned: async (key) => void (calls.removed.push(key), store.delete(key)),
    },
    archive: opts.archive ?? (async (pdf) => Buffer.from(`${pdf.toString()}|${at(400 * DAY)}`)),
    marginMs: 90 * DAY,
    retryMs: 60_000,
    metrics: { retimestamps: { inc: vi.fn() }, expirySeconds: { set: vi.fn() } },
    logger: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    now: () => now,
  };
  return { deps, store, calls };
}

const rec = (n: number, extra: Partial<RetimestampRecord> = {}): RetimestampRecord => ({
  reference: `TX-${n}`,
  object_key: `TX-${n}.pdf`,
  size: 10,
  ts_not_after: new Date(at(10 * DAY)),
  ...extra,
});

describe('retimestampSignedPdfs', () => {
  it('stores the renewed PDF under a new key, then deletes the old one', async () => {
    const { deps, store, calls } = fakes({ due: [rec(1, { ts_renewals: 2, sha256: 'a'.repeat(64) })] });
    expect(await retimestampSignedPdfs(deps)).toBe(1);
    expect([...store.keys()]).toEqual(['TX-1.lta3.pdf']);
    expect(calls.renewed[0]).toMatchObject({ object_key: 'TX-1.lta3.pdf', waitUntil: null, notAfter: new Date(at(400 * DAY)) });
    expect(deps.metrics.retimestamps.inc).toHaveBeenCalledWith({ result: 'renewed' });
  });

  it('does not resurrect a PDF whose record changed meanwhile (its transaction deleted): the new object goes, the old stays', async () => {
    const { deps, store, calls } = fakes({ due: [rec(1)], renewedOk: false });
    expect(await retimestampSignedPdfs(deps)).toBe(0);
    expect(calls.removed).toEqual(['TX-1.lta1.pdf']);
    expect([...store.keys()]).toEqual(['TX-1.pdf']);
    expect(deps.metrics.retimestamps.inc).toHaveBeenCalledWith({ result: 'gone' });
  });

  it('renews with a TSA certificate itself within the margin as short, and waits a day before that PDF again', async () => {
    const { deps, calls } = fakes({ due: [rec(1)], archive: async (pdf) => Buffer.from(`${pdf.toString()}|${at(30 * DAY)}`) });
    await retimestampSignedPdfs(deps);
    expect(calls.renewed[0]).toMatchObject({ waitUntil: new Date(now.getTime() + SHORT_RENEWAL_WAIT_MS) });
    expect(deps.metrics.retimestamps.inc).toHaveBeenCalledWith({ result: 'short' });
  });

  it('ends the pass when no TSA answers (the PDF backs off), and backs off a failing PDF doubling per failure', async () => {
    const down = fakes({
      due: [rec(1), rec(2)],
      archive: async () => {
        throw new TsaUnavailableError(['tsa: timeout']);
      },
    });
    await retimestampSignedPdfs(down.deps);
    expect(down.calls.failed).toEqual([['TX-1', new Date(now.getTime() + 60_000), 1]]);
    expect(down.deps.metrics.retimestamps.inc).toHaveBeenCalledWith({ result: 'tsa_unavailable' });

    const broken = fakes({
      due: [rec(3, { ts_failures: 3 })],
      archive: async () => {
        throw new Error('no CRL');
      },
    });
    await retimestampSignedPdfs(broken.deps);
    expect(broken.calls.failed).toEqual([['TX-3', new Date(now.getTime() + 8 * 60_000), 4]]);
    expect(broken.deps.metrics.retimestamps.inc).toHaveBeenCalledWith({ result: 'error' });
  });
});
