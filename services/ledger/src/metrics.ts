import type { Metrics } from '@signet/kit';

type Counter<L extends string> = { inc(labels: Partial<Record<L, string>>, value?: number): void };
type Total = { inc(value?: number): void };

export type LogMetrics = {
  leavesClaimed: Total;
  leavesAppended: Total;
  treeSize: { set(value: number): void };
  sealPasses: Counter<'result'>;
  sealPassSeconds: { startTimer(): () => number };
};
export type CertificateMetrics = { certificatesIssued: Counter<'result'>; certificatesByAssurance: Counter<'assurance'> };

/**
 * Every domain instrument of the ledger, declared here and nowhere else (listed in README.md). Two
 * groups, because the Merkle log and the certificate consumer are also built on their own (tests,
 * the benchmark, the crash fixture): each builder declares its group once on the registry it is given.
 */
export function logMetrics(metrics: Metrics): LogMetrics {
  return {
    leavesClaimed: metrics.counter('signet_ledger_leaves_claimed_total', 'Leaf indexes claimed for certificates'),
    leavesAppended: metrics.counter('signet_ledger_leaves_appended_total', 'Leaves covered by a signed checkpoint'),
    treeSize: metrics.gauge('signet_ledger_tree_size_leaves', 'Size of the Merkle log as of the last checkpoint'),
    sealPasses: metrics.counter('signet_ledger_seal_passes_total', 'Sealing passes', ['result']),
    sealPassSeconds: metrics.histogram(
      'signet_ledger_seal_pass_duration_seconds',
      'Duration of a sealing pass that appended',
      [],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    ),
  };
}

export function certificateMetrics(metrics: Metrics): CertificateMetrics {
  return {
    // From 0: SignetCertificateIssuanceStalled's increase() sees the first certificate after a restart.
    certificatesIssued: metrics.counter('signet_ledger_certificates_issued_total', 'Certificates issued', ['result'], {
      result: ['issued', 'duplicate', 'rejected'],
    }),
    certificatesByAssurance: metrics.counter(
      'signet_ledger_certificates_by_assurance_total',
      'Certificates issued by what they prove as a whole (their weakest signer): test, recorded, live, live+webauthn',
      ['assurance'],
    ),
  };
}

export type WitnessMetrics = {
  cosignatures: Counter<'witness' | 'result'>;
  uncosignedAge: { set(value: number): void };
};

/** The witnessing instruments (log/cosign.ts); the witness label is a configured witness's name. */
export function witnessMetrics(metrics: Metrics): WitnessMetrics {
  return {
    cosignatures: metrics.counter(
      'signet_ledger_cosignatures_total',
      'Checkpoint submissions to a witness by outcome: ok, conflict, refused, unavailable, invalid',
      ['witness', 'result'],
    ),
    uncosignedAge: metrics.gauge(
      'signet_ledger_uncosigned_checkpoint_age_seconds',
      'Age of the oldest checkpoint newer than the newest one the witness quorum cosigned (0: none waits)',
    ),
  };
}

export type RetimestampMetrics = { retimestamps: Counter<'result'>; expirySeconds: { set(value: number): void } };

/**
 * B-LTA renewals of signed PDFs by outcome — renewed, short (renewed, but the new TSA certificate
 * expires within the margin), tsa_unavailable and error (tried again later) — and the time left until
 * the earliest newest-timestamp TSA certificate among the sealed PDFs expires (alert
 * SignetSignedPdfTimestampExpiring: renewals are not keeping up).
 */
export function retimestampMetrics(metrics: Metrics): RetimestampMetrics {
  return {
    retimestamps: metrics.counter(
      'signet_ledger_signed_pdf_retimestamps_total',
      'Document timestamps added again to signed PDFs (B-LTA renewal), by outcome',
      ['result'],
    ),
    expirySeconds: metrics.gauge(
      'signet_ledger_signed_pdf_timestamp_expiry_seconds',
      "Seconds until the earliest expiry of a signed PDF's newest timestamp's TSA certificate (+Inf: none)",
    ),
  };
}

export type SignedPdfMetrics = { signedPdfSeals: Counter<'result'> };

/**
 * The signed PDF's sealing attempts by outcome: sealed, tsa_unavailable (retried later), error (retried
 * later), failed (given up for good: the document cannot be sealed, or errors persisted; the sender is told),
 * awaiting_witnesses (not an attempt: the checkpoint covering it lacks the witness quorum; looked at again in 2 s).
 */
export function signedPdfMetrics(metrics: Metrics): SignedPdfMetrics {
  return {
    signedPdfSeals: metrics.counter(
      'signet_ledger_signed_pdf_seals_total',
      'Attempts to seal a signed PDF, by outcome',
      ['result'],
      {
        result: ['sealed', 'awaiting_witnesses', 'tsa_unavailable', 'error', 'failed'],
      },
    ),
  };
}

export type PdfTextMetrics = { missingGlyphs: Total };

/** Text in the PDFs (pdf/text/): characters no font has, drawn as the missing-glyph box. */
export function pdfTextMetrics(metrics: Metrics): PdfTextMetrics {
  return {
    missingGlyphs: metrics.counter(
      'signet_ledger_pdf_missing_glyphs_total',
      'Characters drawn in a PDF (certificate, audit trail, signed PDF pages) that no embedded font has, shown as a box',
    ),
  };
}
