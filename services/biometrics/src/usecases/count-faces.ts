import { invalid, notFound } from '@signet/kit';
import type { Analyzer } from '../domain/analyzer.js';

/** A reference photo is at most 10 MB (the transaction service's limit); a little room for the container. */
const MAX_REFERENCE_BYTES = 16 * 1024 * 1024;
/** A creation waits for this answer: one still image takes well under a second on the CPU backends. */
export const COUNT_FACES_DEADLINE_MS = 20_000;

export type CountFacesDeps = {
  analyzer: Pick<Analyzer, 'countFaces'>;
  /** Reads a photo from the references bucket; null when there is no such object. */
  readReference: (key: string, maxBytes: number) => Promise<Buffer | null>;
};

/**
 * The faces in a reference photo, for a creation to refuse one that does not show exactly one face
 * (issue 18). The same detector and limits as the analysis of a capture against that reference, so
 * a photo accepted here is one the verdict can match. Nothing is stored and the photo is not logged.
 */
export async function countFaces(deps: CountFacesDeps, referenceKey: string): Promise<number> {
  if (!/^[\w./-]{1,512}$/.test(referenceKey) || referenceKey.includes('..')) throw invalid('reference_key is not valid');
  const photo = await deps.readReference(referenceKey, MAX_REFERENCE_BYTES);
  if (!photo) throw notFound('no such reference photo');
  try {
    return await deps.analyzer.countFaces(photo, COUNT_FACES_DEADLINE_MS);
  } catch {
    throw invalid('the reference photo could not be decoded');
  }
}
