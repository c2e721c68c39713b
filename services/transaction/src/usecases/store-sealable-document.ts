import { checkSealable, type UnsealableReason } from '../domain/pdf-check.js';
import { fieldInvalid } from '../domain/errors.js';
import type { DocumentUpload, ObjectStore } from '../store/object.store.js';

export type StoreSealableDeps = {
  objects: Pick<ObjectStore, 'readDocument'>;
  /** Counts a refusal by reason (signet_transaction_documents_refused_total). */
  refused?: (reason: UnsealableReason) => void;
};

/**
 * Larger documents are parsed one at a time per process: each is read back whole and pdf-lib holds
 * its objects beside it (a 200 MB document costs several hundred MB for the moment of the check), so
 * parallel large checks would add up past the pod's memory; small ones (under one part, 5 MB, already
 * in memory) are checked at once.
 */
let largeChecks: Promise<unknown> = Promise.resolve();
function oneLargeAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const run = largeChecks.then(fn, fn);
  largeChecks = run.catch(() => undefined);
  return run;
}

/**
 * Stores the uploaded document only if the ledger will be able to seal it (domain/pdf-check.ts):
 * a document still held in memory is checked before it is stored; a larger one, already streamed to
 * storage part by part, is read back and checked before anything is consumed. A refusal is a 400
 * naming the reason; the caller's cleanups remove what was stored.
 */
export async function storeSealableDocument(
  deps: StoreSealableDeps,
  doc: DocumentUpload,
): Promise<{ key: string; sha256: string; size: number }> {
  const refuse = async (bytes: Buffer) => {
    const verdict = await checkSealable(bytes);
    if (verdict.ok) return;
    deps.refused?.(verdict.reason);
    throw fieldInvalid('document', verdict.detail);
  };
  const held = doc.held();
  if (held) await refuse(held);
  const stored = await doc.finish();
  if (!held) await oneLargeAtATime(async () => refuse(await deps.objects.readDocument(stored.key)));
  return stored;
}
