/**
 * The append-only log of certificates.
 *
 * Appending is two steps, both insert-only:
 *   1. claim (the consumer, per certificate, before it inserts the certificate): insert the leaf
 *      document `_id` = next index, unique `reference`; the index and the seal go into the certificate
 *      record and its certificate.issued event. A retry after a crash gets the same leaf back.
 *   2. checkpoint (the sealing pass, under a single-writer lease on the tree head): read the claimed
 *      leaves beyond the head in index order, store the newly complete subtree hashes, sign the
 *      checkpoint of the new size and move the head with a compare-and-set on (size, lease token).
 * A certificate is public (verify, proof) once the head covers its leaf. A crash anywhere is repaired
 * by the next pass: nodes are content-addressed, leaves are already claimed, the head moves once.
 * The seal is a signed promise of inclusion at that index (as a CT signed certificate timestamp is);
 * the checkpoint that proves it follows within one pass.
 */
import { randomUUID } from 'node:crypto';
import { createMicroBatcher, invalid, notFound, type Logger, type Metrics } from '@signet/kit';
import { BUNDLE_FORMAT, parseCheckpoint, parseNote, type CertificateBundle } from '@signet/verify';
import {
  consistencyRanges,
  Frontier,
  inclusionRanges,
  leafHash,
  nodesFor,
  perfectSubtrees,
  rangeHash,
  type PerfectNode,
} from '../domain/merkle.js';
import type { LogSigner } from '../domain/signer.js';
import { logMetrics } from '../metrics.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import type { CosignatureRepository, StoredCheckpoint } from '../store/cosignature.repository.js';
import { LeaseLost, type LeafRecord, type TreeHead, type TreeRepository } from '../store/tree.repository.js';

export type LedgerLogOptions = { batchMax?: number; leaseMs?: number };

/** At most this many leaves claimed by one insert. */
const CLAIM_BATCH_MAX = 256;

/** The witnesses whose cosignatures make a checkpoint servable (their key ids, hex) and how many are needed. */
export type WitnessQuorum = { kids: string[]; quorum: number };

/** A stored checkpoint as served: the log's note followed by the witnesses' cosignature lines. */
export function cosignedNote(cp: Pick<StoredCheckpoint, 'note' | 'cosignatures'>): string {
  const lines = Object.keys(cp.cosignatures)
    .sort()
    .map((k) => cp.cosignatures[k]!);
  return cp.note + lines.join('');
}

/**
 * The log over its store and key. `metrics` is the registry the log's instruments are declared on
 * (metrics.ts, logMetrics): once per log. The periodic sealing pass is jobs/seal.job.ts.
 */
export function createLedgerLog(
  deps: {
    certs: CertificateRepository;
    tree: TreeRepository;
    signer: LogSigner;
    metrics: Metrics;
    /** Stored checkpoints with their cosignatures: the history and the cosigned checkpoints served. */
    cosigs?: CosignatureRepository;
    /** With witnesses: checkpoints are served once this quorum cosigned them (see published()). */
    witnesses?: WitnessQuorum;
    /** No longer read here (the sealing job logs its failures); still accepted from the callers that pass it. */
    logger?: Logger;
  },
  opts: LedgerLogOptions = {},
) {
  const { certs, tree, signer, cosigs } = deps;
  const batchMax = opts.batchMax ?? 5000;
  const leaseMs = opts.leaseMs ?? 10_000;
  const {
    leavesClaimed: claimed,
    leavesAppended: appended,
    treeSize,
    sealPasses: passes,
    sealPassSeconds: passSeconds,
  } = logMetrics(deps.metrics);
  let hint: number | null = null;

  async function frontierAt(size: number): Promise<Frontier> {
    const ids = perfectSubtrees([0, size]);
    const get = await tree.nodes(ids);
    return Frontier.of(
      size,
      ids.map((id) => ({ ...id, hash: get(id) })),
    );
  }

  /**
   * The leaf of a certificate: claimed now, or the one a previous attempt claimed. Claims in this
   * process are batched: the ones waiting while an insert runs go together in the next, with one
   * ordered insert at (last claimed or largest index) + 1, + 2, …, so the leaves never have a gap the
   * checkpoints would stall at. Replicas race on the unique _id.
   */
  const claimBatched = createMicroBatcher<{ reference: string; leaf: Buffer }, LeafRecord & { seal: string }>(
    async (batch) => {
      try {
        if (hint === null) hint = await tree.nextIndex();
        const items = batch.map((w) => ({ reference: w.reference, leaf: w.leaf.toString('utf8'), hash: leafHash(w.leaf) }));
        const r = await tree.claimLeaves(items, hint);
        for (const l of r.leaves) hint = Math.max(hint, l.index + 1);
        claimed.inc(r.inserted);
        return r.leaves.map((l) => ({ ok: { ...l, seal: signer.seal(l.index, l.hash) } }));
      } catch (err) {
        // A failed insert may have taken some indexes: the next batch asks for the largest again.
        hint = null;
        throw err;
      }
    },
    { max: CLAIM_BATCH_MAX },
  );
  const claim = (reference: string, leaf: Buffer) => claimBatched({ reference, leaf });

  /** One checkpoint under the lease: covers the claimed leaves beyond the head, in order, without gaps. */
  async function batch(token: string, head: TreeHead): Promise<{ head: TreeHead; added: number }> {
    const beyond = await tree.leavesFrom(head.size, batchMax);
    let n = 0;
    while (n < beyond.length && beyond[n]!.index === head.size + n) n++;
    if (n === 0) return { head, added: 0 };
    const frontier = await frontierAt(head.size);
    const made: PerfectNode[] = [];
    for (const l of beyond.slice(0, n)) made.push(...frontier.append(l.hash));
    await tree.putNodes(made);
    const root = frontier.root();
    const next = { size: frontier.size, root, checkpoint: signer.checkpoint(frontier.size, root) };
    await tree.putCheckpoint(next.size, next.checkpoint);
    await tree.advance(token, head.size, next, leaseMs);
    appended.inc(n);
    treeSize.set(next.size);
    return { head: next, added: n };
  }

  /** Covers every claimed leaf with a signed checkpoint; returns how many it added (0 when another replica holds the lease). */
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
        total += r.added;
        if (r.added < batchMax) break;
      }
      passes.inc({ result: 'ok' });
      if (total > 0) end();
      return total;
    } catch (err) {
      passes.inc({ result: err instanceof LeaseLost ? 'lease_lost' : 'error' });
      throw err;
    } finally {
      await tree.release(token).catch(() => undefined);
    }
  }

  /** The checkpoint of `size` with its stored cosignatures (the log's note alone when none are stored). */
  async function noteAt(size: number, fallback: string | null): Promise<string | null> {
    const stored = cosigs ? await cosigs.at(size) : null;
    return stored ? cosignedNote(stored) : fallback;
  }

  /**
   * The checkpoint served: without witnesses, the head; with them, the newest checkpoint the quorum
   * cosigned (until there is one, the head with whatever cosignatures it has).
   */
  async function published(): Promise<TreeHead> {
    const head = await tree.head();
    const w = deps.witnesses;
    const stored = cosigs && w && w.quorum > 0 ? await cosigs.newestWithQuorum(w.kids, w.quorum) : null;
    if (stored)
      return { size: stored.size, root: parseCheckpoint(parseNote(stored.note).text).root, checkpoint: cosignedNote(stored) };
    return { ...head, checkpoint: (await noteAt(head.size, head.checkpoint))! };
  }

  return {
    claim,
    sealPending,
    published,

    async head(): Promise<TreeHead> {
      return tree.head();
    },

    /**
     * The bundle a verifier needs: certificate, seal, inclusion proof and the checkpoint it leads to —
     * the published one when it covers the leaf, else the head (with the cosignatures it has so far).
     * `revealCommitments` (the owner's copy): with the openings of the media commitments.
     */
    async bundle(reference: string, opts: { revealCommitments?: boolean } = {}): Promise<CertificateBundle> {
      const rec = await certs.findByReference(reference);
      const head = await tree.head();
      if (!rec || rec.leaf_index === null || rec.leaf_index >= head.size) throw notFound('no certificate for this reference');
      let target = await published();
      if (target.size <= rec.leaf_index) target = { ...head, checkpoint: (await noteAt(head.size, head.checkpoint))! };
      const ranges = inclusionRanges(rec.leaf_index, target.size);
      const get = await tree.nodes(nodesFor(ranges));
      return {
        format: BUNDLE_FORMAT,
        certificate: rec.certificate,
        ledger_seal: rec.ledger_seal,
        leaf_index: rec.leaf_index,
        tree_size: target.size,
        inclusion_proof: ranges.map((r) => rangeHash(r, get).toString('base64')),
        checkpoint: target.checkpoint,
        ...(opts.revealCommitments && rec.commitment_openings ? { commitment_openings: rec.commitment_openings } : {}),
      };
    },

    /** Every signed checkpoint with from ≤ size ≤ to (with its cosignatures), by size, at most `limit`. */
    async history(from: number, to: number, limit: number): Promise<(StoredCheckpoint & { checkpoint: string })[]> {
      if (!cosigs) return [];
      return (await cosigs.range(from, to, limit)).map((c) => ({ ...c, checkpoint: cosignedNote(c) }));
    },

    /** RFC 9162 consistency proof between two sizes of the log (0 < from ≤ to ≤ current size). */
    async consistency(from: number, to: number) {
      const head = await tree.head();
      if (from < 1) throw invalid('from must be at least 1');
      if (to > head.size) throw invalid(`to must not exceed the tree size ${head.size}`);
      if (from > to) throw invalid('from must not exceed to');
      const ranges = consistencyRanges(from, to);
      const get = await tree.nodes(nodesFor([...ranges, [0, from], [0, to]]));
      const [fromCheckpoint, toCheckpoint] = await Promise.all(
        [from, to].map(async (n) => noteAt(n, await tree.checkpointAt(n))),
      );
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
