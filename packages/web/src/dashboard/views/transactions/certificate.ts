/**
 * The certificate card of an issued transaction (issue 17): the stored signed PDF and audit trail
 * (the same bytes the ledger sealed, on every download), the public verify link and the evidence
 * bundle. The ledger seals the PDFs a little after the certificate is issued: until then the API
 * answers 409, and the button shows "Sealing…" and asks again until they are ready.
 */
import { api, ApiError, type Detail } from '../../api.js';
import { download, fmtDate, h, message } from '../../dom.js';

/** How often, and how many times, a download asks again while the ledger seals. */
const SEAL_POLL_MS = 3000;
const SEAL_TRIES = 40;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Pdf = { file: 'signed.pdf' | 'audit-trail.pdf'; id: string; label: string; name: string };

const PDFS: Pdf[] = [
  { file: 'signed.pdf', id: 'signed-pdf', label: 'Signed PDF', name: 'signed' },
  { file: 'audit-trail.pdf', id: 'audit-trail-pdf', label: 'Audit trail (PDF)', name: 'audit trail' },
];

/** A download button for one of the stored PDFs, with its sealing state and error in `note`. */
function pdfButton(t: Detail, pdf: Pdf, note: HTMLElement): HTMLButtonElement {
  const btn = h('button', { type: 'button', id: pdf.id }, pdf.label);
  const say = (text: string, error = false) => {
    note.textContent = text;
    note.className = error ? 'form-error' : 'hint';
    note.setAttribute('role', error ? 'alert' : 'status');
    note.hidden = !text;
  };
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    say('');
    try {
      for (let tries = 1; ; tries++) {
        try {
          download(await api.pdf(t.id, pdf.file), `${t.reference}-${pdf.file.replace('.pdf', '')}.pdf`);
          say('');
          return;
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 409)) throw err;
          if (tries >= SEAL_TRIES) {
            say(`The ${pdf.name} PDF is still being sealed. Try again in a minute.`);
            return;
          }
          btn.textContent = 'Sealing…';
          btn.setAttribute('aria-busy', 'true');
          say(`Sealing… the ${pdf.name} PDF gets its timestamp; it downloads when ready.`);
          await sleep(SEAL_POLL_MS);
          if (!btn.isConnected) return; // the user has left the page
        }
      }
    } catch (err) {
      say(message(err), true);
    } finally {
      btn.textContent = pdf.label;
      btn.removeAttribute('aria-busy');
      btn.disabled = false;
    }
  });
  return btn;
}

export function certificateCard(t: Detail): HTMLElement {
  const prefix = t.document_sha256.slice(0, 16);
  const note = h('p', { class: 'hint', role: 'status', id: 'pdf-note', hidden: true });
  const verify = `/verify?ref=${encodeURIComponent(t.reference)}&hash=${prefix}`;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'h-cert', id: 'certificate' },
    h('h2', { id: 'h-cert' }, 'Certificate'),
    h('p', {}, 'Issued ', fmtDate(t.verified_at), '.'),
    h(
      'div',
      { class: 'row' },
      ...PDFS.map((pdf) => pdfButton(t, pdf, note)),
      h('a', { class: 'button', href: verify, id: 'verify-link' }, 'Public verify link'),
      h(
        'a',
        { class: 'button', href: `/api/ledger/proof/${encodeURIComponent(t.reference)}?hash=${prefix}&download=1` },
        'Evidence bundle (JSON)',
      ),
    ),
    note,
    h(
      'p',
      { class: 'hint' },
      'The signed PDF holds the document, its audit trail and the evidence, sealed with a trusted timestamp. Anyone can check it at ',
      h('code', {}, `${location.origin}${verify}`),
    ),
  );
}
