import type { ServerWritableStream } from '@grpc/grpc-js';
import type { Client } from 'minio';
import { toServiceError, type Logger } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { openSigningDocument } from '../usecases/open-signing-document.js';

/**
 * GetSigningDocument (server streaming): the document of a live signing session, a header message
 * (name, size) then the PDF in chunks as it streams from storage, honouring backpressure.
 */
export function signingDocumentHandler(deps: {
  repo: Pick<TransactionRepository, 'resolveToken' | 'findById'>;
  s3: Client;
  bucket: string;
  logger: Logger;
}) {
  return async (call: ServerWritableStream<transactionV1.ResolveSigningTokenRequest, transactionV1.DocumentChunk>) => {
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
    });
    try {
      const doc = await openSigningDocument(deps, call.request.token);
      call.write({ data: Buffer.alloc(0), name: doc.name, size: doc.size });
      const stream = await doc.open();
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (cancelled) {
          stream.destroy();
          return;
        }
        if (!call.write({ data: chunk, name: '', size: 0 })) await new Promise((r) => call.once('drain', r));
      }
      call.end();
    } catch (err) {
      const se = toServiceError(err);
      if (se.code === 13) deps.logger.error({ err }, 'signing document stream failed');
      call.emit('error', se);
    }
  };
}
