import type { ledgerV1 } from '@signet/proto';
import type { LedgerDeps } from '../usecases/deps.js';
import { getCheckpoint } from '../usecases/get-checkpoint.js';
import { getConsistencyProof } from '../usecases/get-consistency-proof.js';
import { listCheckpoints } from '../usecases/list-checkpoints.js';

/** The log's public evidence: GetCheckpoint, GetConsistencyProof, ListCheckpoints, GetPublicKey. */
export function logHandlers(deps: LedgerDeps) {
  return {
    async getCheckpoint(_req?: ledgerV1.GetCheckpointRequest): Promise<ledgerV1.GetCheckpointResponse> {
      const head = await getCheckpoint(deps);
      return { origin: deps.signer.origin, treeSize: head.size, rootHash: head.root, checkpoint: head.checkpoint };
    },
    async getConsistencyProof(req: ledgerV1.GetConsistencyProofRequest): Promise<ledgerV1.GetConsistencyProofResponse> {
      const p = await getConsistencyProof(deps, { fromSize: req.fromSize, toSize: req.toSize });
      return {
        fromSize: p.from,
        toSize: p.to,
        fromRoot: p.fromRoot,
        toRoot: p.toRoot,
        proof: p.proof,
        fromCheckpoint: p.fromCheckpoint ?? '',
        toCheckpoint: p.toCheckpoint ?? '',
      };
    },
    async listCheckpoints(req: ledgerV1.ListCheckpointsRequest): Promise<ledgerV1.ListCheckpointsResponse> {
      const page = await listCheckpoints(deps, { from: req.fromSize, to: req.toSize, pageSize: req.pageSize });
      return {
        checkpoints: page.checkpoints.map((c) => ({
          treeSize: c.size,
          checkpoint: c.checkpoint,
          signedAt: c.signedAt.toISOString(),
          cosignatures: c.cosignatures,
        })),
        nextFromSize: page.nextFrom ?? 0,
      };
    },
    /** The public half of the configured key, every key of the log with its period, and its witnesses' keys: no use case, nothing is read or decided. */
    async getPublicKey(_req?: ledgerV1.GetPublicKeyRequest): Promise<ledgerV1.GetPublicKeyResponse> {
      const s = deps.signer;
      return {
        origin: s.origin,
        algorithm: 'Ed25519',
        keyId: s.keyId.toString('hex'),
        verifierKey: s.verifierKey,
        publicKeyPem: s.publicKeyPem,
        publicKey: Buffer.from(s.publicKey),
        keys: s.keys.map((k) => ({ ...k, publicKey: Buffer.from(k.publicKey) })),
        witnesses: deps.witnessKeys?.witnesses ?? [],
        witnessQuorum: deps.witnessKeys?.quorum ?? 0,
      };
    },
  };
}
