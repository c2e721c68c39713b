/** New transaction: the form, its checks before upload, and the upload with progress and an idempotency key. */
import { api, ApiError } from '../../api.js';
import { clearErrors, field, formError, h, showError, value } from '../../dom.js';
import type { App, View } from '../../main.js';
import { dropZone, head } from './drop-zone.js';

const MAX_EXTRA = 4;

/** The document's drop zone: a PDF up to 200 MB. */
const documentZone = () =>
  dropZone('document', 'Document (PDF)', 'application/pdf,.pdf', 'PDF up to 200 MB.', async (f) => {
    if (f.size > 200 * 1024 * 1024) return 'document: must be at most 200 MB';
    const b = await head(f, 5);
    return String.fromCharCode(...b) === '%PDF-' ? null : 'document: is not a PDF (it must begin with %PDF-)';
  });

/** The primary signer's face photo: a JPEG or PNG up to 10 MB. */
const referenceZone = () =>
  dropZone(
    'reference',
    'Face photo of the primary signer',
    'image/jpeg,image/png',
    'JPEG or PNG up to 10 MB; used to match the signer’s face.',
    async (f) => {
      if (f.size > 10 * 1024 * 1024) return 'reference: must be at most 10 MB';
      const b = await head(f, 4);
      const jpeg = b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
      const png = b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
      return jpeg || png ? null : 'reference: must be a JPEG or PNG image';
    },
  );

/** The additional signers' email boxes (up to four) and the button that adds one; each box has its Remove. */
function extraSigners() {
  const extra = h('div', { id: 'extra-signers' });
  const addBtn = h('button', { type: 'button', id: 'add-signer' }, 'Add another signer');
  let extraCount = 0;
  const syncAdd = () => (addBtn.hidden = extraCount >= MAX_EXTRA);
  addBtn.addEventListener('click', () => {
    if (extraCount >= MAX_EXTRA) return;
    extraCount++;
    const n = extraCount;
    const f = field(`Additional signer ${n} email`, 'signer_emails', { type: 'email', autocomplete: 'off', 'data-extra': n });
    // The API names this whole list signer_emails; the first box carries its error slot.
    if (n > 1) f.removeAttribute('data-field');
    const remove = h('button', { type: 'button', class: 'small', 'aria-label': `Remove additional signer ${n}` }, 'Remove');
    remove.addEventListener('click', () => {
      f.remove();
      extraCount--;
      // Renumber the labels so they stay 1..n.
      extra.querySelectorAll('.field').forEach((el, i) => {
        el.querySelector('label')!.textContent = `Additional signer ${i + 1} email`;
        el.querySelector('button')!.setAttribute('aria-label', `Remove additional signer ${i + 1}`);
        if (i === 0) el.setAttribute('data-field', 'signer_emails');
      });
      syncAdd();
      addBtn.focus();
    });
    f.append(remove);
    extra.append(f);
    syncAdd();
    f.querySelector('input')!.focus();
  });
  return { extra, addBtn };
}

/** The attestation type and the assurance each signer must meet. */
const attestationFields = () => [
  field(
    'Attestation',
    'attestation_type',
    {},
    {
      tag: 'select',
      options: [
        ['signature', 'Signature'],
        ['approval', 'Approval'],
        ['review', 'Review'],
        ['consent', 'Consent'],
      ],
    },
  ),
  field(
    'Required assurance',
    'required_assurance',
    {},
    {
      tag: 'select',
      options: [
        ['live', 'Live: recorded in real time as the prompts appear (recommended)'],
        ['live+webauthn', 'Live, and confirmed with a passkey or security key'],
        ['recorded', 'Recorded: also accept a single uploaded video (weaker)'],
      ],
      hint: 'A recording that proves less than this is refused before it is checked; each signer of this form must meet it.',
    },
  ),
];

/** The form: primary signer, additional signers, attestation, the two files, then `tail` (progress, notices). */
function creationForm(extra: ReturnType<typeof extraSigners>, zones: HTMLElement[], tail: HTMLElement[]) {
  return h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-new', id: 'create-form' },
    h('h2', { id: 'h-new', class: 'visually-hidden' }, 'Transaction details'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Primary signer'),
      field('Full legal name', 'signer_name', { autocomplete: 'off', required: true, maxlength: 200 }),
      field(
        'Email',
        'signer_email',
        { type: 'email', autocomplete: 'off', required: true },
        { hint: 'The signing link is sent here.' },
      ),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Additional signers (up to four)'),
      h('p', { class: 'hint' }, 'Each gets a link of their own and is checked by liveness.'),
      extra.extra,
      extra.addBtn,
    ),
    ...attestationFields(),
    ...zones,
    ...tail,
    formError(),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', class: 'primary' }, 'Send for signing'),
      h('a', { href: '/app/transactions', 'data-link': true, class: 'button' }, 'Cancel'),
    ),
  );
}

/** The form's text fields as the API names them (the files are appended after them). */
function textFields(form: HTMLFormElement, extra: HTMLElement) {
  const fd = new FormData();
  fd.append('signer_name', value(form, 'signer_name'));
  fd.append('signer_email', value(form, 'signer_email'));
  fd.append('attestation_type', value(form, 'attestation_type'));
  fd.append('required_assurance', value(form, 'required_assurance'));
  const extras = [...extra.querySelectorAll<HTMLInputElement>('input')].map((i) => i.value.trim()).filter(Boolean);
  if (extras.length) fd.append('signer_emails', extras.join(','));
  return fd;
}

/** Says the plan's monthly limit is reached, with a link to billing, and moves focus there. */
function showLimit(limit: HTMLElement) {
  limit.replaceChildren(
    h('strong', {}, 'Monthly limit reached — upgrade or buy credits. '),
    h('a', { href: '/app/billing', 'data-link': true }, 'Go to billing'),
  );
  limit.hidden = false;
  limit.focus();
}

export async function createView(app: App): Promise<View> {
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'New transaction'));
  const doc = documentZone();
  const ref = referenceZone();
  const extra = extraSigners();
  const progress = h('progress', { max: 100, value: 0, id: 'upload-progress', 'aria-label': 'Upload progress' });
  const pct = h('span', { id: 'upload-pct', 'aria-hidden': 'true' });
  const progressBox = h('div', { class: 'progress', hidden: true }, progress, pct);
  const limit = h('div', { class: 'alert', role: 'alert', id: 'quota-reached', hidden: true });
  const form = creationForm(extra, [doc.zone, ref.zone], [progressBox, limit]);

  // One key per filled-in form: a retry after a lost answer returns the same transaction.
  let idem = crypto.randomUUID();
  form.addEventListener('input', () => (idem = crypto.randomUUID()));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    limit.hidden = true;
    const d = doc.file();
    const r = ref.file();
    const fd = textFields(form, extra.extra);
    // Files last: the gateway streams them and checks the text fields at the end.
    if (!d) return showError(form, new ApiError(400, 'document: is required — choose or drop a PDF'));
    if (!r) return showError(form, new ApiError(400, 'reference: is required — choose or drop a face photo'));
    fd.append('document', d, d.name);
    fd.append('reference', r, r.name);
    const btn = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    btn.disabled = true;
    form.setAttribute('aria-busy', 'true');
    progressBox.hidden = false;
    progress.value = 0;
    try {
      const created = await api.createTransaction(fd, idem, (f) => {
        progress.value = Math.round(f * 100);
        pct.textContent = `${Math.round(f * 100)}%`;
      });
      progress.value = 100;
      app.go(`/app/transactions/${created.id}`, { notice: `Sent. ${created.reference} is waiting for the signer.` });
    } catch (err) {
      progressBox.hidden = true;
      if (err instanceof ApiError && err.status === 402) showLimit(limit);
      else showError(form, err);
    } finally {
      btn.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
  limit.setAttribute('tabindex', '-1');
  root.append(form);
  return { id: 'new', title: 'New transaction', nav: 'transactions', node: root };
}
