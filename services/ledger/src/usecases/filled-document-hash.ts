import { createHash } from 'node:crypto';
import type { Logger } from '@signet/kit';
import { fieldsStamp, parseStampedFields } from '../pdf/fields-stamp.js';

/**
 * The SHA-256 of the filled document (issue 33): the original (revision 1) with the signers' field
 * values stamped as one incremental update after it, exactly as the sealing job appends them (the
 * same update, which is deterministic), so the signed PDF's prefix up to that update's end hashes to
 * it. The certificate carries it beside `document_sha256`, binding the values each signer filled.
 * A document that cannot be read throws (the event is redelivered); values that cannot be stamped
 * (which the sealing job could not stamp either) are logged and give none.
 */
export async function filledDocumentSha256(
  deps: { objects: { readDocument(key: string): Promise<Buffer> }; logger: Pick<Logger, 'error'> },
  documentKey: string,
  fieldsJson: string,
): Promise<string | undefined> {
  const original = await deps.objects.readDocument(documentKey);
  try {
    const filled = await fieldsStamp(parseStampedFields(fieldsJson))(original);
    return createHash('sha256').update(filled).digest('hex');
  } catch (err) {
    deps.logger.error({ err }, 'the field values cannot be stamped into the document: the certificate carries no filled hash');
    return undefined;
  }
}
