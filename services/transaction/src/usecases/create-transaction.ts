import { createFromStored, type CreateDeps, type CreationResult } from './create-from-stored.js';
import type { Cleanups, CreationPart } from './creation-upload.js';
import { receiveUpload } from './receive-upload.js';

export type { CreationPart } from './creation-upload.js';
export type { CreateDeps, CreationResult, StoredRefs } from './create-from-stored.js';

/**
 * Creates a transaction from its upload stream, in the two use cases every creation goes through:
 * receive-upload stores the document and photos (each checked), create-from-stored makes the
 * transaction from them and the request (idempotency, quota, record and events). Any failure, or
 * `isCancelled()`, removes what was stored and refunds what was consumed. A repeated Idempotency-Key
 * returns the first result (`replayed`) and this request's uploads are removed.
 */
export async function createTransaction(
  deps: CreateDeps,
  parts: AsyncIterable<CreationPart>,
  isCancelled: () => boolean,
): Promise<CreationResult> {
  const cleanups: Cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  try {
    const upload = await receiveUpload(deps, parts, isCancelled, cleanups);
    const result = await createFromStored(deps, upload.request, upload, cleanups, upload.prepared);
    // A replay returns the first result; this request's uploads are removed.
    if (result.replayed) await cleanup();
    return result;
  } catch (err) {
    await cleanup();
    throw err;
  }
}
