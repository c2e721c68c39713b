import type { LedgerLog } from '../log/ledger-log.js';

/** GetConsistencyProof: RFC 9162 proof between two sizes; `toSize` 0 means the current size. */
export async function getConsistencyProof(
  deps: { log: Pick<LedgerLog, 'head' | 'consistency'> },
  input: { fromSize: number; toSize: number },
) {
  const to = input.toSize === 0 ? (await deps.log.head()).size : input.toSize;
  return deps.log.consistency(input.fromSize, to);
}
