import { certificateHandlers } from './grpc/certificate.handler.js';
import { logHandlers } from './grpc/log.handler.js';
import { signedPdfHandler } from './grpc/signed-pdf.handler.js';
import type { LedgerDeps } from './usecases/deps.js';

export type LedgerHandlers = ReturnType<typeof certificateHandlers> &
  ReturnType<typeof logHandlers> & { getSignedPdf: ReturnType<typeof signedPdfHandler> };

/**
 * Every RPC of `signet.ledger.v1.LedgerService`. No side effects: the caller (app.ts) opens the
 * connections and registers the result with the gRPC server.
 */
export function ledgerHandlers(deps: LedgerDeps): LedgerHandlers {
  return {
    ...certificateHandlers(deps),
    ...logHandlers(deps),
    getSignedPdf: signedPdfHandler({ signedPdfs: null, objects: null, ...deps.signedPdf }),
  };
}
