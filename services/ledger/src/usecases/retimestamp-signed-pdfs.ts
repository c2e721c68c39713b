import { createHash } from 'node:crypto';
import type { Logger } from '@signet/kit';
import { timestampExpiry } from '../pdf/doc-timestamp.js';
import type { RetimestampMetrics } from '../metrics.js';
import type { RetimestampRecord, RetimestampRepository } from '../store/retimestamp.repository.js';
import type { SignedPdfObjects } from '../store/signed-pdf.objects.js';
import { TsaUnavailableError } from '../tsa/tsa.client.js';

export type RetimestampDeps = {
  records: Pick<RetimestampRepository, 'claimUnread' | 'claimDue' | 'schedule' | 'renewed' | 'failed' | 'earliestExpiry'>;
  objects: Pick<SignedPdfObjects, 'openSigned' | 'putSigned' | 'removeSigned'>;
  /** The B-LTA step: the newest timestamps' validation data into the DSS, then a new document timestamp. */
  archive: (pdf: Buffer) => Promise<Buffer>;
  /** Renew this long before the newest timestamp's TSA certificate expires. */
  marginMs: number;
  /** Wait before trying a PDF again after a failure (doubles per failure, at most a day). */
  retryMs: number;
  metrics: RetimestampMetrics;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  now: () => Date;
};

/** A claimed record stays reserved this long: one replica renews it at a time. */
export const RETIMESTAMP_LEASE_MS = 300_000;

async function read(objects: RetimestampDeps['objects'], key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of (await objects.openSigned(key)) as AsyncIterable<Buffer>) parts.push(chunk);
  return Buffer.concat(parts);
}

/** After a renewal whose new TSA certificate is itself within the margin, the PDF waits this long (renewing sooner would not help). */
export const SHORT_RENEWAL_WAIT_MS = 86_400_000;

/** Reads the timestamps of a stored PDF not read yet: when its newest TSA certificate expires. */
async function readOne(deps: RetimestampDeps, rec: RetimestampRecord): Promise<void> {
  await deps.records.schedule(rec.reference, rec.object_key, timestampExpiry(await read(deps.objects, rec.object_key)));
}

/** One due PDF: a new DSS and document timestamp, stored under a new key that replaces the old one. */
async function renewOne(deps: RetimestampDeps, rec: RetimestampRecord): Promise<'renewed' | 'short' | 'gone'> {
  const pdf = await deps.archive(await read(deps.objects, rec.object_key));
  const notAfter = timestampExpiry(pdf)!;
  const renewals = (rec.ts_renewals ?? 0) + 1;
  const key = `${rec.reference}.lta${renewals}.pdf`;
  await deps.objects.putSigned(key, pdf);
  const at = deps.now();
  const short = notAfter.getTime() - deps.marginMs <= at.getTime();
  const waitUntil = short ? new Date(at.getTime() + SHORT_RENEWAL_WAIT_MS) : null;
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  if (!(await deps.records.renewed(rec, { object_key: key, size: pdf.length, sha256, notAfter, at, waitUntil }))) {
    // Deleted (or replaced) meanwhile: the new object must not outlive its record.
    await deps.objects.removeSigned(key);
    return 'gone';
  }
  await deps.objects.removeSigned(rec.object_key);
  const fields = { reference: rec.reference, renewals, tsa_not_after: notAfter.toISOString(), size: pdf.length };
  if (short) deps.logger.warn(fields, 'signed PDF timestamped again, but the TSA certificate expires within the margin');
  else deps.logger.info(fields, 'signed PDF timestamped again (B-LTA)');
  return short ? 'short' : 'renewed';
}

/**
 * The re-timestamping pass (B-LTA, issue 32 item 7): first reads the timestamps of sealed PDFs not
 * read yet, then renews each PDF whose newest timestamp's TSA certificate expires within the margin —
 * the validation data of its timestamps into the DSS and a new document timestamp after it — one
 * claimed record at a time, so replicas share the work and a restart resumes it (the state is on the
 * records). No TSA answering ends the pass (every PDF would wait on it); the record is tried again later.
 */
export async function retimestampSignedPdfs(deps: RetimestampDeps): Promise<number> {
  for (let rec = await deps.records.claimUnread(deps.now(), RETIMESTAMP_LEASE_MS); rec;) {
    try {
      await readOne(deps, rec);
    } catch (err) {
      deps.logger.error({ reference: rec.reference, err }, 'cannot read the timestamps of a signed PDF; tried again later');
      await deps.records.failed(rec.reference, new Date(deps.now().getTime() + deps.retryMs), (rec.ts_failures ?? 0) + 1);
    }
    rec = await deps.records.claimUnread(deps.now(), RETIMESTAMP_LEASE_MS);
  }
  let renewed = 0;
  const claimDue = () => deps.records.claimDue(deps.now(), new Date(deps.now().getTime() + deps.marginMs), RETIMESTAMP_LEASE_MS);
  for (let rec = await claimDue(); rec;) {
    try {
      const result = await renewOne(deps, rec);
      deps.metrics.retimestamps.inc({ result });
      if (result !== 'gone') renewed++;
    } catch (err) {
      const failures = (rec.ts_failures ?? 0) + 1;
      const wait = Math.min(deps.retryMs * 2 ** (failures - 1), 86_400_000);
      await deps.records.failed(rec.reference, new Date(deps.now().getTime() + wait), failures);
      const tsa = err instanceof TsaUnavailableError;
      deps.metrics.retimestamps.inc({ result: tsa ? 'tsa_unavailable' : 'error' });
      deps.logger[tsa ? 'warn' : 'error'](
        { reference: rec.reference, failures, err: (err as Error).message },
        'timestamping a signed PDF again failed; tried again later',
      );
      if (tsa) break;
    }
    rec = await claimDue();
  }
  const earliest = await deps.records.earliestExpiry();
  deps.metrics.expirySeconds.set(earliest ? (earliest.getTime() - deps.now().getTime()) / 1000 : Number.POSITIVE_INFINITY);
  return renewed;
}
