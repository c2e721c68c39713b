import { notFound } from '@signet/kit';
import type { CertificateRecord, CertificateRepository } from '../store/certificate.repository.js';

/** GetCertificate: the record by reference, sealed or not (the caller checks ownership). */
export async function getCertificate(
  deps: { certs: Pick<CertificateRepository, 'findByReference'> },
  reference: string,
): Promise<CertificateRecord> {
  const rec = await deps.certs.findByReference(reference);
  if (!rec) throw notFound('no certificate for this reference');
  return rec;
}
