/**
 * The append-only log of certificates. Certificates are inserted by the consumer with leaf_index
 * null; the sealing pass appends every pending one, in order, under a single-writer lease:
 *
 *   1. take the lease on the tree head (findOneAndUpdate; expires, so a dead writer does not block);
 *   2. claim leaf indexes by inserting leaf documents (_id = index; unique reference);
 *   3. store the newly complete subtree hashes; sign the checkpoint of the new size;
 *   4. move the head with a compare-and-set on (size, lease token);
 *   5. mark each certificate sealed (leaf index, seal) and put certificate.issued on its outbox.
 *
 * A crash after any step is repaired by the next pass: leaves beyond the head are re-appended as they
 * are (their indexes are already claimed), and certificates whose leaf the head covers are marked.
 * Nothing is appended twice (unique reference) and no index is given twice (unique _id).
 */
import { randomUUID } from 'node:crypto';
import { eventsV1 } from '@signet/proto';
import { invalid, notFound, outboxEvent, type Logger, type Metrics } from '@signet/kit';
import { BUNDLE_FORMAT, certificateLeaf, type CertificateBundle } from '@signet/verify';
import {
  consistencyRanges,
  EMPTY_ROOT,
  Frontier,
  inclusionRanges,
  leafHash,
  nodesFor,
  perfectSubtrees,
  rangeHash,
  type PerfectNode,
} from '../domain/merkle.js';
import type { LogSigner } from '../domain/signer.js';
import type { CertificateRepository, SealUpdate } from '../store/certificate.repository.js';
import { LeaseLost, type LeafRecord, type TreeHead, type TreeRepository } from '../store/tree.repository.js';

export const ISSUED_SUBJECT = 'signet.ledger.certificate.issued';

export type LedgerLogOptions = { batchMax?: number; leaseMs?: number; pollMs?: number };

export function createLedgerLog(
  deps: { certs: CertificateRepository; tree: TreeRepository; signer: LogSigner; metrics: Metrics; logger: Logger; onSealed?: () => void },
  opts: LedgerLogOptions = {},
) {
  const { certs, tree, signer, logger } = deps;
  const batchMax = opts.batchMax ?? 500;
  const leaseMs = opts.leaseMs ?? 10_000;
  const appended = deps.metrics.counter('signet_ledger_leaves_appended_total', 'Certificates appended to the Merkle log');
  const treeSize = deps.metrics.gauge('signet_ledger_tree_size_leaves', 'Size of the Merkle log as of the last checkpoint');
  const passes = deps.metrics.counter('signet_ledger_seal_passes_total', 'Sealing passes', ['result']);
  const passSeconds = deps.metrics.histogram('signet_ledger_seal_pass_duration_seconds', 'Duration of a sealing pass that appended', [], [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
  ]);

  async function frontierAt(size: number): Promise<Frontier> {
    const ids = perfectSubtrees([0, size]);
    const get = await tree.nodes(ids);
    return Frontier.of(size, ids.map((id) => ({ ...id, hash: get(id) })));
  }

  /** One batch under the lease: returns how many certificates it sealed, and whether more may wait. */
  async function batch(token: string, head: TreeHead): Promise<{ head: TreeHead; sealed: number; more: boolean }> {
    const pending = await certs.pending(batchMax);
    const orphans = await tree.leavesFrom(head.size);
    if (pending.length === 0 && orphans.length === 0) return { head, sealed: 0, more: false };
    orphans.forEach((l, i) => {
      if (l.index !== head.size + i) throw new Error(`leaf ${head.size + i} is missing beyond the tree head`);
    });
    const known = await tree.leavesByReference(pending.map((c) => c.reference));
    for (const l of orphans) known.set(l.reference, l);
    const fresh: LeafRecord[] = pending
      .filter((c) => !known.has(c.reference))
      .map((c, j) => ({ index: head.size + orphans.length + j, reference: c.reference, hash: leafHash(certificateLeaf(c.certificate)) }));
    await tree.insertLeaves(fresh);
    for (const l of fresh) known.set(l.reference, l);

    const added = [...orphans, ...fresh];
    let next = head;
    if (added.length > 0) {
      const frontier = await frontierAt(head.size);
      const made: PerfectNode[] = [];
      for (const l of added) made.push(...frontier.append(l.hash));
      await tree.putNodes(made);
      const root = frontier.root();
      next = { size: frontier.size, root, checkpoint: signer.checkpoint(frontier.size, root) };
      await tree.putCheckpoint(next.size, next.checkpoint);
      await tree.advance(token, head.size, next, leaseMs);
      appended.inc(added.length);
      treeSize.set(next.size);
    }

    const updates: SealUpdate[] = [];
    for (const c of pending) {
      const leaf = known.get(c.reference);
      if (!leaf || leaf.index >= next.size) continue;
      const seal = signer.seal(leaf.index, leaf.hash);
      updates.push({
        reference: c.reference,
        leaf_index: leaf.index,
        ledger_seal: seal,
        outbox: outboxEvent(ISSUED_SUBJECT, (meta) =>
          eventsV1.CertificateIssued.encode({
            eventId: meta.event_id,
            occurredAt: meta.occurred_at,
            transactionId: c.transaction_id,
            reference: c.reference,
            leafIndex: leaf.index,
            ledgerSeal: seal,
          }).finish(),
        ),
      });
    }
    const sealed = await certs.markSealed(updates);
    return { head: next, sealed, more: pending.length === batchMax };
  }

  /** Appends every pending certificate; returns how many were sealed (0 when another replica holds the lease). */
  async function sealPending(): Promise<number> {
    const token = randomUUID();
    let head = await tree.acquire(token, leaseMs);
    if (!head) {
      passes.inc({ result: 'lease_busy' });
      return 0;
    }
    const end = passSeconds.startTimer();
    let total = 0;
    try {
      for (;;) {
        const r = await batch(token, head);
        head = r.head;
        total += r.sealed;
        if (!r.more) break;
      }
      passes.inc({ result: 'ok' });
      if (total > 0) {
        end();
        deps.onSealed?.();
      }
      return total;
    } catch (err) {
      passes.inc({ result: err instanceof LeaseLost ? 'lease_lost' : 'error' });
      throw err;
    } finally {
      await tree.release(token).catch(() => undefined);
    }
  }

  let running = false;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await sealPending();
      } while (again && !stopped);
    } catch (err) {
      logger.warn({ err }, 'sealing pass failed; will retry');
    } finally {
      running = false;
    }
  };

  return {
    sealPending,
    /** Seal soon (after an insert); concurrent kicks coalesce into one more pass. */
    kick: () => void run(),
    start() {
      timer = setInterval(() => void run(), opts.pollMs ?? 1000);
      timer.unref();
      void run();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 10));
    },

    async head(): Promise<TreeHead> {
      return tree.head();
    },

    /** The bundle a verifier needs: certificate, seal, inclusion proof to the current head and its signed checkpoint. */
    async bundle(reference: string): Promise<CertificateBundle> {
      const rec = await certs.findByReference(reference);
      if (!rec || rec.leaf_index === null) throw notFound('no certificate for this reference');
      const head = await tree.head();
      const ranges = inclusionRanges(rec.leaf_index, head.size);
      const get = await tree.nodes(nodesFor(ranges));
      return {
        format: BUNDLE_FORMAT,
        certificate: rec.certificate,
        ledger_seal: rec.ledger_seal,
        leaf_index: rec.leaf_index,
        tree_size: head.size,
        inclusion_proof: ranges.map((r) => rangeHash(r, get).toString('base64')),
        checkpoint: head.checkpoint,
      };
    },

    /** RFC 9162 consistency proof between two sizes of the log (0 < from ≤ to ≤ current size). */
    async consistency(from: number, to: number) {
      const head = await tree.head();
      if (from < 1) throw invalid('from must be at least 1');
      if (to > head.size) throw invalid(`to must not exceed the tree size ${head.size}`);
      if (from > to) throw invalid('from must not exceed to');
      const ranges = consistencyRanges(from, to);
      const get = await tree.nodes(nodesFor([...ranges, [0, from], [0, to]]));
      const [fromCheckpoint, toCheckpoint] = await Promise.all([tree.checkpointAt(from), tree.checkpointAt(to)]);
      return {
        from,
        to,
        fromRoot: rangeHash([0, from], get),
        toRoot: rangeHash([0, to], get),
        proof: ranges.map((r) => rangeHash(r, get)),
        fromCheckpoint,
        toCheckpoint,
      };
    },
  };
}

export type LedgerLog = ReturnType<typeof createLedgerLog>;
export { EMPTY_ROOT };
