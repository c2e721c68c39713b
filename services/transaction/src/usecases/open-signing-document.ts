import type { Readable } from 'node:stream';
import type { Client } from 'minio';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { resolveSigningToken } from './resolve-signing-token.js';

/**
 * The document of a live signing session: the token is resolved exactly as ResolveSigningToken does
 * (a cancelled or finished transaction's link shows nothing), then its name and size are known and
 * `open()` streams the PDF from the documents bucket without holding it in memory.
 */
export async function openSigningDocument(
  deps: { repo: Pick<TransactionRepository, 'resolveToken' | 'findById'>; s3: Client; bucket: string },
  token: string,
): Promise<{ name: string; size: number; open: () => Promise<Readable> }> {
  const { rec } = await resolveSigningToken(deps, token);
  const stat = await deps.s3.statObject(deps.bucket, rec.document_key);
  return { name: rec.document_name, size: stat.size, open: () => deps.s3.getObject(deps.bucket, rec.document_key) };
}
