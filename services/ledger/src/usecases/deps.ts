import type { Logger } from '@signet/kit';
import type { LogSigner } from '../domain/signer.js';
import type { LedgerLog } from '../log/ledger-log.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import type { GetSignedPdfDeps } from './get-signed-pdf.js';

/**
 * What the RPC use cases may be handed; each names the part it needs (`Pick`), so a unit test
 * passes in-memory fakes of just those. (Issuing, from the consumer, has its own: issue-certificate.ts.)
 */
export type LedgerDeps = {
  certs: CertificateRepository;
  log: LedgerLog;
  signer: LogSigner;
  /** PUBLIC_BASE_URL: where the /verify page lives (the certificate PDF's link and QR code). */
  publicBaseUrl: string;
  /** The witnesses cosigning this log's checkpoints and their quorum (served by GetPublicKey); absent: none. */
  witnessKeys?: { witnesses: { name: string; verifierKey: string; keyId: string }[]; quorum: number };
  /** Which log these deps serve (test mode); absent: the live one. */
  logName?: 'live' | 'test';
  /** The signed PDFs (absent or null parts: this ledger does not seal them) and the logger of the stream's failures. */
  signedPdf?: GetSignedPdfDeps & { logger?: Logger };
};
