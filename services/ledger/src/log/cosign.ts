/**
 * Witnessing: each pass submits the log's newest checkpoint to every configured witness that has not
 * cosigned it yet (C2SP tlog-witness add-checkpoint), with the consistency proof from the size that
 * witness last cosigned, checks the cosignature it returns against that witness's key and stores it
 * with the checkpoint. A witness that is down is asked again next pass: certificates never wait on it
 * (they are in the log already); only the cosignatures of the checkpoints served lag behind.
 *
 * The size a witness last cosigned is the largest stored with its cosignature; when the witness says
 * otherwise (409 with the size it knows, e.g. a cosignature lost to a crash between its answer and our
 * write), that size is used: any size up to our head can be proved. A witness that knows a larger tree
 * than ours, or refuses a proof, is reported (metric, error log) and never worked around.
 */
import { verifyCosignature } from '@signet/verify';
import type { Logger, Metrics } from '@signet/kit';
import { witnessMetrics } from '../metrics.js';
import type { CosignatureRepository } from '../store/cosignature.repository.js';
import type { TreeRepository } from '../store/tree.repository.js';
import { addCheckpoint } from '../witness/witness-client.js';
import type { Witness } from '../witness/witness.config.js';
import type { LedgerLog } from './ledger-log.js';

export type CosignResult = 'ok' | 'current' | 'conflict' | 'refused' | 'unavailable' | 'invalid';

export function createCosigner(deps: {
  tree: Pick<TreeRepository, 'head'>;
  cosigs: CosignatureRepository;
  log: Pick<LedgerLog, 'consistency'>;
  witnesses: Witness[];
  quorum: number;
  timeoutMs: number;
  metrics: Metrics;
  logger: Logger;
}) {
  const { tree, cosigs, log, logger } = deps;
  const m = witnessMetrics(deps.metrics);
  /** What each witness is known to have cosigned (in this process; the store and 409s correct it). */
  const known = new Map<string, number>();
  /** The last outcome logged per witness: a failure is logged when it starts (not every poll), and the recovery. */
  const lastLogged = new Map<string, CosignResult>();
  const once = (w: Witness, result: CosignResult, log: () => void) => {
    if (lastLogged.get(w.kid) !== result) log();
    lastLogged.set(w.kid, result);
  };

  async function submit(w: Witness): Promise<CosignResult> {
    const head = await tree.head();
    if (head.size === 0) return 'current';
    let old = known.get(w.kid) ?? (await cosigs.lastCosignedBy(w.kid));
    if (old === head.size && (await cosigs.at(head.size))?.cosignatures[w.kid]) return 'current';
    for (let attempt = 0; attempt < 3; attempt++) {
      const proof = old > 0 && old < head.size ? (await log.consistency(old, head.size)).proof : [];
      const r = await addCheckpoint(w.url, { oldSize: old, proof, checkpoint: head.checkpoint }, deps.timeoutMs);
      if (r.kind === 'cosigned') {
        const line = r.lines.split(/(?<=\n)/).find((l) => verifyCosignature(head.checkpoint, w.key, l) !== null);
        if (!line) {
          once(w, 'invalid', () =>
            logger.error({ witness: w.name, size: head.size }, 'witness answered without a valid cosignature by its key'),
          );
          return 'invalid';
        }
        await cosigs.add(head.size, w.kid, line);
        known.set(w.kid, head.size);
        return 'ok';
      }
      if (r.kind === 'conflict') {
        if (r.knownSize > head.size) {
          once(w, 'conflict', () =>
            logger.error(
              { witness: w.name, witnessSize: r.knownSize, size: head.size },
              'witness knows a larger tree than this log',
            ),
          );
          return 'conflict';
        }
        if (r.knownSize === old) return 'conflict'; // no progress: do not loop
        old = r.knownSize;
        continue;
      }
      if (r.kind === 'refused') {
        once(w, 'refused', () =>
          logger.error(
            { witness: w.name, status: r.status, reason: r.reason, size: head.size, old },
            'witness refused the checkpoint',
          ),
        );
        return 'refused';
      }
      once(w, 'unavailable', () =>
        logger.warn({ witness: w.name, reason: r.reason }, 'witness unavailable; cosigning will be retried'),
      );
      return 'unavailable';
    }
    return 'conflict';
  }

  /** How long the oldest checkpoint not covered by a quorum-cosigned one has waited (0 when none waits). */
  async function waitingSeconds(): Promise<number> {
    const published = await cosigs.newestWithQuorum(
      deps.witnesses.map((w) => w.kid),
      deps.quorum,
    );
    const waiting = await cosigs.firstAfter(published?.size ?? 0);
    return waiting ? Math.max(0, (Date.now() - waiting.at.getTime()) / 1000) : 0;
  }

  return {
    /** One pass over every witness (in parallel); returns each witness's outcome. */
    async cosignPending(): Promise<Record<string, CosignResult>> {
      const out: Record<string, CosignResult> = {};
      await Promise.all(
        deps.witnesses.map(async (w) => {
          const r = await submit(w).catch((err: unknown) => {
            once(w, 'unavailable', () =>
              logger.warn({ witness: w.name, err: (err as Error).message }, 'cosigning pass failed; will retry'),
            );
            return 'unavailable' as const;
          });
          out[w.name] = r;
          if (r !== 'current') m.cosignatures.inc({ witness: w.name, result: r });
          if (r === 'ok' || r === 'current') {
            const was = lastLogged.get(w.kid);
            if (was && was !== 'ok' && was !== 'current') logger.info({ witness: w.name, was }, 'witness cosigning again');
            lastLogged.set(w.kid, r);
          }
        }),
      );
      m.uncosignedAge.set(await waitingSeconds());
      return out;
    },
  };
}

export type Cosigner = ReturnType<typeof createCosigner>;
