import type { ServerWritableStream } from '@grpc/grpc-js';
import { toServiceError, type Logger } from '@signet/kit';
import type { ledgerV1 } from '@signet/proto';
import { getSignedPdf, type GetSignedPdfDeps } from '../usecases/get-signed-pdf.js';

/**
 * GetSignedPdf (server streaming): a header message (file name, size), then the stored signed PDF
 * in chunks as it streams from storage, honouring backpressure.
 */
export function signedPdfHandler(deps: GetSignedPdfDeps & { logger?: Logger }) {
  return async (call: ServerWritableStream<ledgerV1.GetSignedPdfRequest, ledgerV1.SignedPdfChunk>) => {
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
    });
    try {
      const pdf = await getSignedPdf(deps, call.request.reference, { auditTrail: call.request.auditTrail });
      const stream = await pdf.open();
      call.write({ data: Buffer.alloc(0), filename: pdf.filename, size: pdf.size });
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (cancelled) {
          stream.destroy();
          return;
        }
        if (!call.write({ data: chunk, filename: '', size: 0 })) await new Promise((r) => call.once('drain', r));
      }
      call.end();
    } catch (err) {
      const se = toServiceError(err);
      if (se.code === 13) deps.logger?.error({ err }, 'signed PDF stream failed');
      call.emit('error', se);
    }
  };
}
