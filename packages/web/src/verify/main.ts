/**
 * The public /verify page. A person types the reference and the hash prefix, or drops the original PDF
 * (hashed in the browser with WebCrypto), and sees the result and every check made: the online answer,
 * the document hash, the leaf recomputed from the certificate (RFC 8785 + RFC 9162), the inclusion proof
 * up to the checkpoint root, and the Ed25519 signatures of the checkpoint and the seal (where the browser
 * supports Ed25519 in WebCrypto). A dropped signed PDF is instead sent to POST /api/verify/signed-pdf and
 * every check it answers is shown.
 */
import './verify.css';
import { verification } from './api.js';
import { hex } from './crypto.js';
import { $, assuranceRows, check, clear, logName, passed, result, row, verificationText } from './dom.js';
import { listKeys } from './keys.js';
import { verifyLog } from './log.js';
import { checkSigned, isSigned } from './signed.js';

const refInput = $<HTMLInputElement>('ref');
const hashInput = $<HTMLInputElement>('hash');
/** The full SHA-256 of the dropped original, until the prefix is typed over. */
let fullHash: string | null = null;

async function run(ev?: Event): Promise<void> {
  ev?.preventDefault();
  const ref = refInput.value.trim().toUpperCase();
  const prefix = hashInput.value.trim().toLowerCase();
  clear();
  if (!/^[A-Z0-9]{2,8}-TX-\d{8}$/.test(ref)) return result('The reference looks like ABC-TX-00000001.', 'bad');
  if (!/^[0-9a-f]{16}$/.test(prefix))
    return result('Enter the first 16 characters of the document SHA-256, or drop the PDF.', 'bad');
  result('Checking\u2026');
  try {
    const answer = await verification(ref, prefix);
    if (!answer.ok) {
      check(false, 'no certificate matches this reference and document hash');
      return result(`Not verified: ${answer.body.detail}`, 'bad');
    }
    const body = answer.body;
    check(
      body.valid,
      `the service reports a valid certificate ${body.reference} for a document whose hash starts ${body.document_sha256_prefix}`,
    );
    row('Signer', body.signer_name);
    row('Issuer', body.issuer_name);
    row('Verified at (UTC)', body.verified_at);
    row('Verification', verificationText(body.verification_mode, body.log));
    assuranceRows(body);
    row('Ledger seal', body.ledger_seal);
    row('Sealed in log', logName(body.log));
    const ok = body.valid && (await verifyLog(ref, prefix, body.log, fullHash));
    result(
      ok
        ? (body.log === 'test' ? 'TEST certificate, verified in the test log: ' : 'Verified: ') + body.reference
        : 'Not verified: see the failed check below',
      ok ? passed(body.log) : 'bad',
    );
  } catch (e) {
    result(`The check could not be completed: ${(e as Error).message}`, 'bad');
  }
}

async function takeFile(file: File | undefined): Promise<void> {
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (isSigned(bytes)) return checkSigned(file, bytes);
  $('file').textContent = `Hashing ${file.name}\u2026`;
  const digest = hex(await crypto.subtle.digest('SHA-256', bytes));
  fullHash = digest;
  hashInput.value = digest.slice(0, 16);
  // As the API answers such a file: it carries no seal, so it can only be checked as the original document.
  $('file').textContent =
    `${file.name} carries no seal (no signature): it is not a signed PDF, so it is checked as the original document. ` +
    `SHA-256 ${digest} (computed in this browser; the file is not uploaded)`;
  if (refInput.value.trim()) void run();
  else result('This PDF carries no seal. Enter its certificate reference to check it as the original document.');
}

$('form').addEventListener('submit', (e) => void run(e));
const picker = $<HTMLInputElement>('pdf');
picker.addEventListener('change', () => void takeFile(picker.files?.[0]));
const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  void takeFile(e.dataTransfer?.files[0]);
});
hashInput.addEventListener('input', () => (fullHash = null));
const q = new URLSearchParams(location.search);
const qRef = q.get('ref');
const qHash = q.get('hash');
if (qRef) refInput.value = qRef;
if (qHash) hashInput.value = qHash;
if (qRef && qHash) void run();
void listKeys();
