import { DomainError, notFound } from '@signet/kit';
import type { LogName } from '../log/test-log.js';
import type { LedgerHandlers } from '../server.js';

type Handlers = LedgerHandlers;
const isNotFound = (err: unknown) =>
  err instanceof DomainError ? err.kind === 'not_found' : (err as { code?: number } | null)?.code === 5;

/**
 * The RPCs over both logs (test mode, issue 16). A reference lives in one log: the reference RPCs
 * ask the live log and, when it does not know the reference, the test log; verification says which
 * log sealed it. The log RPCs serve the log their request names (`log: "test"`), else the live one.
 * Without a test log, `log: "test"` is NOT_FOUND and every reference is looked up in the live log only.
 */
export function selectLog(live: Handlers, test: Handlers | null): Handlers {
  const noTestLog = () => notFound('no test log is configured');
  const pick = (log: string | undefined): Handlers => {
    if (log !== 'test') return live;
    if (!test) throw noTestLog();
    return test;
  };
  /** The live answer, else the test log's (a live NOT_FOUND is the answer when there is no test log). */
  async function either<T>(call: (h: Handlers) => Promise<T>): Promise<{ value: T; log: LogName }> {
    try {
      return { value: await call(live), log: 'live' };
    } catch (err) {
      if (!test || !isNotFound(err)) throw err;
      return { value: await call(test), log: 'test' };
    }
  }
  return {
    async verifyCertificate(req) {
      const r = await either((h) => h.verifyCertificate(req));
      return { ...r.value, log: r.log };
    },
    getCertificate: async (req) => (await either((h) => h.getCertificate(req))).value,
    getProofBundle: async (req) => (await either((h) => h.getProofBundle(req))).value,
    renderCertificatePdf: async (req) => (await either((h) => h.renderCertificatePdf(req))).value,
    getCheckpoint: async (req) => pick(req?.log).getCheckpoint(req),
    getConsistencyProof: async (req) => pick(req.log).getConsistencyProof(req),
    listCheckpoints: async (req) => pick(req.log).listCheckpoints(req),
    getPublicKey: async (req) => pick(req?.log).getPublicKey(req),
    // One handler over both logs' records (app.ts bothSignedPdfs): test certificates have signed PDFs too.
    getSignedPdf: live.getSignedPdf,
  };
}
