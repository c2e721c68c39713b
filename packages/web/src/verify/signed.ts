/**
 * A signed PDF (it has a signature's /ByteRange) is sent to the server, which checks the seal, its
 * timestamp, its certificate chain and the embedded cert.json, and answers every check.
 */
import { checkSignedPdf } from './api.js';
import { enc, type Bytes } from './crypto.js';
import { $, assuranceRows, check, clear, logName, passed, result, row } from './dom.js';

export function isSigned(bytes: Bytes): boolean {
  const needle = enc.encode('/ByteRange');
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    if (bytes[i] !== 47) continue;
    for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

export async function checkSigned(file: File, bytes: Bytes): Promise<void> {
  clear();
  $('file').textContent =
    `${file.name}: a signed PDF, sent to this server to check its seal, timestamp and embedded evidence (it is not kept)`;
  result('Checking the signed PDF\u2026');
  try {
    const answer = await checkSignedPdf(bytes);
    if (!answer.ok) {
      check(false, answer.body.detail);
      result(`Not verified: ${answer.body.detail}`, 'bad');
      return;
    }
    const body = answer.body;
    for (const c of body.checks) check(c.ok, `${c.name}: ${c.detail}`);
    if (body.reference) {
      row('Certificate', body.reference);
      $<HTMLInputElement>('ref').value = body.reference;
    }
    if (body.sealed_by) row('Sealed by', body.sealed_by);
    if (body.timestamp) row('Trusted time (UTC)', body.timestamp);
    if (body.assurance) assuranceRows({ ...body, assurance: body.assurance, assurance_meaning: body.assurance_meaning ?? '' });
    if (body.log) row('Sealed in log', logName(body.log));
    result(
      body.valid
        ? (body.log === 'test' ? 'TEST certificate, signed PDF verified in the test log: ' : 'Verified signed PDF: ') +
            (body.reference ?? '')
        : 'Not verified: see the failed check below',
      body.valid ? passed(body.log) : 'bad',
    );
  } catch (e) {
    result(`The check could not be completed: ${(e as Error).message}`, 'bad');
  }
}
