import type { ServerWritableStream } from '@grpc/grpc-js';
import type { Client } from 'minio';
import { toServiceError, type Logger } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';

/**
 * Streams the document of a live signing session to the signer. The token is resolved exactly as
 * ResolveSigningToken does (a cancelled or finished transaction's link shows nothing), then the PDF
 * streams from the documents bucket without being held in memory.
 */
export function signingDocumentHandler(deps: {
  resolve: (req: transactionV1.ResolveSigningTokenRequest) => Promise<transactionV1.SigningContext>;
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
      const ctx = await deps.resolve(call.request);
      const stat = await deps.s3.statObject(deps.bucket, ctx.documentKey);
      call.write({ data: Buffer.alloc(0), name: ctx.documentName, size: stat.size });
      const stream = await deps.s3.getObject(deps.bucket, ctx.documentKey);
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
