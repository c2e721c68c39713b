/**
 * The checkpoint a verifier remembers between runs (a state file), and the check that a checkpoint
 * seen later is consistent with it: the log never rewrote what it showed before. Without this, a log
 * could show each user a history of their own and every one of them would verify.
 */
import { verifyConsistency } from './merkle.js';
import type { Checkpoint } from './note.js';
import type { Check } from './bundle.js';

export const STATE_FORMAT = 'signet-verify-state/v1';

export type RememberedCheckpoint = {
  format: typeof STATE_FORMAT;
  origin: string;
  tree_size: number;
  root_hash: string;
  checkpoint: string;
};

/** A consistency proof as GET /api/ledger/consistency?from=&to= serves it (only from, to and proof are used). */
export type ConsistencyProof = { from: number; to: number; proof: string[] };

export function parseState(value: unknown): RememberedCheckpoint {
  const s = value as Partial<RememberedCheckpoint> | null;
  if (typeof s !== 'object' || s === null || s.format !== STATE_FORMAT)
    throw new Error(`state file must be a ${STATE_FORMAT} document`);
  if (typeof s.origin !== 'string' || typeof s.checkpoint !== 'string' || typeof s.root_hash !== 'string')
    throw new Error('state file lacks origin, root_hash or checkpoint');
  if (!Number.isSafeInteger(s.tree_size) || (s.tree_size as number) < 0) throw new Error('state file tree_size is not a size');
  return s as RememberedCheckpoint;
}

export function rememberCheckpoint(cp: Checkpoint, note: string): RememberedCheckpoint {
  return { format: STATE_FORMAT, origin: cp.origin, tree_size: cp.size, root_hash: cp.root.toString('base64'), checkpoint: note };
}

/**
 * Whether the (verified) checkpoint `cp` and the remembered one are two views of one history. Equal
 * sizes need equal roots; otherwise `proof` must be an RFC 9162 consistency proof from the smaller
 * size to the larger, checked against the two roots the verifier trusts (never the roots a server sent).
 */
export function checkConsistentWithRemembered(
  remembered: RememberedCheckpoint,
  cp: Checkpoint,
  proof: ConsistencyProof | undefined,
): Check {
  const name = 'consistency';
  const oldRoot = Buffer.from(remembered.root_hash, 'base64');
  if (remembered.origin !== cp.origin)
    return { name, ok: false, detail: `the remembered checkpoint is of log ${remembered.origin}, not ${cp.origin}` };
  if (remembered.tree_size === cp.size)
    return cp.root.equals(oldRoot)
      ? { name, ok: true, detail: `same checkpoint as remembered (size ${cp.size})` }
      : { name, ok: false, detail: `the log showed another root at size ${cp.size} before: two histories of one log` };
  const [small, large] = remembered.tree_size < cp.size ? [remembered.tree_size, cp.size] : [cp.size, remembered.tree_size];
  const [smallRoot, largeRoot] = remembered.tree_size < cp.size ? [oldRoot, cp.root] : [cp.root, oldRoot];
  if (small === 0) return { name, ok: true, detail: `the remembered log was empty; now size ${cp.size}` };
  if (!proof)
    return {
      name,
      ok: false,
      detail: `no consistency proof between the remembered size ${remembered.tree_size} and ${cp.size}: pass --consistency (GET /api/ledger/consistency?from=${small}&to=${large})`,
    };
  if (proof.from !== small || proof.to !== large || !Array.isArray(proof.proof))
    return { name, ok: false, detail: `the consistency proof is for sizes ${proof.from}..${proof.to}, not ${small}..${large}` };
  const ok = verifyConsistency(
    small,
    large,
    smallRoot,
    largeRoot,
    proof.proof.map((h) => Buffer.from(h, 'base64')),
  );
  return ok
    ? { name, ok: true, detail: `size ${cp.size} is consistent with the remembered size ${remembered.tree_size}` }
    : {
        name,
        ok: false,
        detail: `size ${cp.size} is NOT consistent with the remembered size ${remembered.tree_size}: the log rewrote its history`,
      };
}
