/** Transactions: list (server-side search and status filter, cursor paging), create (uploads with progress), detail. */
import { api, ApiError, session, type Detail, type Summary } from '../api.js';
import {
  announce,
  chip,
  clearErrors,
  confirmDialog,
  download,
  field,
  fmtDate,
  formError,
  h,
  message,
  showError,
  STATUS_LABEL,
  TERMINAL,
  uid,
  value,
} from '../dom.js';
import type { App, View } from '../main.js';

const PAGE = 25;
/** The API's limit on the search text. */
const MAX_QUERY = 100;
/** Typing pauses this long before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

// ---------------------------------------------------------------------------------------------
// List

export async function listView(_app: App): Promise<View> {
  const root = h('section', {});
  const exportBtn = h('button', { type: 'button', id: 'export-csv' }, 'Export CSV');
  const exportErr = h('p', { class: 'form-error', role: 'alert', hidden: true });
  root.append(
    h(
      'div',
      { class: 'head-row' },
      h('h1', { tabindex: -1 }, 'Transactions'),
      h(
        'div',
        { class: 'row' },
        h('a', { href: '/app/transactions/new', 'data-link': true, class: 'button primary', id: 'new-tx' }, 'New transaction'),
        exportBtn,
      ),
    ),
    exportErr,
  );
  exportBtn.addEventListener('click', async () => {
    exportBtn.disabled = true;
    exportErr.hidden = true;
    try {
      download(await api.exportCsv(), 'transactions.csv');
      announce('Export downloaded.');
    } catch (err) {
      exportErr.textContent = message(err);
      exportErr.hidden = false;
    } finally {
      exportBtn.disabled = false;
    }
  });

  // The filter lives in the page's URL (?q=…&status=…), so a reload or Back shows the same list.
  const fromUrl = new URLSearchParams(location.search);
  const initialStatus = fromUrl.get('status') ?? '';
  const search = field('Search by signer or reference', 'q', {
    type: 'search',
    autocomplete: 'off',
    maxlength: MAX_QUERY,
    placeholder: 'Name, email or ABC-TX-…',
    value: (fromUrl.get('q') ?? '').slice(0, MAX_QUERY),
  });
  const status = field(
    'Status',
    'status',
    {},
    { tag: 'select', options: [['', 'All statuses'], ...Object.entries(STATUS_LABEL)] },
  );
  const searchInput = search.querySelector('input')!;
  const statusSelect = status.querySelector('select')!;
  statusSelect.value = initialStatus in STATUS_LABEL ? initialStatus : '';
  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter transactions' }, search, status);
  root.append(filters);

  const tbody = h('tbody', {});
  const table = h(
    'table',
    { class: 'table stack', id: 'tx-table' },
    h('caption', { class: 'visually-hidden' }, 'Your transactions, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Reference'),
        h('th', { scope: 'col' }, 'Signer'),
        h('th', { scope: 'col' }, 'Status'),
        h('th', { scope: 'col' }, 'Created'),
      ),
    ),
    tbody,
  );
  const info = h('p', { class: 'hint', role: 'status', id: 'list-info' });
  const more = h('button', { type: 'button', id: 'load-more', hidden: true }, 'Load more');
  const listErr = h('p', { class: 'form-error', role: 'alert', hidden: true });
  root.append(table, info, listErr, more);

  // State: the rows of the current filter fetched so far (newest first) and the API's next cursor.
  // The server searches and filters; the page only asks for the next page of what it answered.
  let rows: Summary[] = [];
  let cursor: string | null = null;
  let done = false;
  let gen = 0;
  const filter = () => ({ q: searchInput.value.trim(), status: statusSelect.value });
  const filtering = () => !!filter().q || !!filter().status;

  const row = (s: Summary) =>
    h(
      'tr',
      { 'data-id': s.id },
      h('th', { scope: 'row' }, h('a', { href: `/app/transactions/${s.id}`, 'data-link': true }, s.reference || `#${s.id}`)),
      h(
        'td',
        { 'data-label': 'Signer' },
        h('span', {}, s.signer_name),
        h('br', {}),
        h('span', { class: 'hint' }, s.signer_email),
      ),
      h('td', { 'data-label': 'Status' }, chip(s.status)),
      h('td', { 'data-label': 'Created' }, fmtDate(s.created_at)),
    );

  const render = () => {
    tbody.replaceChildren(...rows.map(row));
    const n = rows.length;
    if (!n && done)
      info.textContent = filtering()
        ? 'No transaction matches.'
        : 'No transactions yet. Create one to send a document for signing.';
    else
      info.textContent = `Showing ${n}${done ? '' : '+'} ${filtering() ? 'matching ' : ''}transaction${n === 1 && done ? '' : 's'}.`;
    more.hidden = done;
  };

  /** Fetches the next page of the current filter (the first when `fresh`), dropping answers to an older filter. */
  const load = async (fresh: boolean) => {
    const mine = ++gen;
    if (fresh) {
      rows = [];
      cursor = null;
      done = false;
    }
    listErr.hidden = true;
    more.disabled = true;
    table.setAttribute('aria-busy', 'true');
    try {
      const page = await api.transactions(PAGE, cursor ?? undefined, filter());
      if (mine !== gen) return;
      rows = fresh ? page.items : rows.concat(page.items);
      cursor = page.next;
      done = !page.next;
      render();
    } catch (err) {
      if (mine !== gen) return;
      if (fresh) {
        rows = [];
        tbody.replaceChildren();
        info.textContent = '';
        more.hidden = true;
      }
      listErr.textContent = message(err);
      listErr.hidden = false;
    } finally {
      if (mine === gen) {
        more.disabled = false;
        table.removeAttribute('aria-busy');
      }
    }
  };

  /** Puts the filter into the URL (a new history entry when `push`) and asks the server for it. */
  const apply = (push: boolean) => {
    if (!root.isConnected) return; // the user has left the list meanwhile
    const f = filter();
    const params = new URLSearchParams({ ...(f.q ? { q: f.q } : {}), ...(f.status ? { status: f.status } : {}) });
    const url = `/app/transactions${params.size ? `?${params.toString()}` : ''}`;
    if (url !== `${location.pathname}${location.search}`) {
      if (push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    }
    void load(true);
  };

  more.addEventListener('click', () => void load(false));
  let timer: number | undefined;
  let typed = false;
  searchInput.addEventListener('input', () => {
    clearTimeout(timer);
    // The first pause in typing makes a history entry; later ones refine it in place.
    timer = window.setTimeout(() => {
      apply(!typed);
      typed = true;
    }, SEARCH_DEBOUNCE_MS);
  });
  statusSelect.addEventListener('change', () => {
    clearTimeout(timer);
    typed = false;
    apply(true);
  });
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(timer);
    typed = false;
    apply(true);
  });

  await load(true);
  return { id: 'transactions', title: 'Transactions', nav: 'transactions', node: root };
}

// ---------------------------------------------------------------------------------------------
// Create

function fmtSize(n: number) {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

async function head(file: File, n: number) {
  return new Uint8Array(await file.slice(0, n).arrayBuffer());
}

/** A drop zone around a labelled file input, with a preview and the field's error slot. */
function dropZone(
  name: 'document' | 'reference',
  label: string,
  accept: string,
  hint: string,
  check: (f: File) => Promise<string | null>,
) {
  const id = uid(name);
  const input = h('input', { type: 'file', id, name, accept, class: 'file-input', 'aria-describedby': `${id}-hint ${id}-err` });
  const preview = h('div', { class: 'preview', 'aria-live': 'polite', id: `${id}-preview` });
  const err = h('p', { class: 'field-error', id: `${id}-err`, hidden: true });
  const zone = h(
    'div',
    { class: 'field drop', 'data-field': name },
    h('label', { for: id }, label),
    h('p', { class: 'hint', id: `${id}-hint` }, hint, ' Drop the file here or choose it.'),
    input,
    preview,
    err,
  );
  let file: File | null = null;
  let objectUrl: string | null = null;
  const take = async (f: File | undefined) => {
    err.hidden = true;
    input.removeAttribute('aria-invalid');
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = null;
    file = null;
    preview.replaceChildren();
    if (!f) return;
    const problem = await check(f);
    if (problem) {
      err.textContent = problem;
      err.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    file = f;
    if (name === 'reference') {
      objectUrl = URL.createObjectURL(f);
      preview.append(h('img', { src: objectUrl, alt: `Preview of the face photo ${f.name}`, class: 'thumb' }));
    } else preview.append(h('span', { class: 'pdf-icon', 'aria-hidden': 'true' }, 'PDF'));
    preview.append(h('span', { class: 'file-meta' }, `${f.name} · ${fmtSize(f.size)}`));
  };
  input.addEventListener('change', () => void take(input.files?.[0]));
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const f = e.dataTransfer?.files[0];
    if (f) {
      // Keep the input in step with what was dropped, so the form is one source of truth.
      const dt = new DataTransfer();
      dt.items.add(f);
      input.files = dt.files;
    }
    void take(f);
  });
  return { zone, file: () => file };
}

export async function createView(app: App): Promise<View> {
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'New transaction'));
  const doc = dropZone('document', 'Document (PDF)', 'application/pdf,.pdf', 'PDF up to 200 MB.', async (f) => {
    if (f.size > 200 * 1024 * 1024) return 'document: must be at most 200 MB';
    const b = await head(f, 5);
    return String.fromCharCode(...b) === '%PDF-' ? null : 'document: is not a PDF (it must begin with %PDF-)';
  });
  const ref = dropZone(
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

  const extra = h('div', { id: 'extra-signers' });
  const addBtn = h('button', { type: 'button', id: 'add-signer' }, 'Add another signer');
  let extraCount = 0;
  const syncAdd = () => (addBtn.hidden = extraCount >= 4);
  addBtn.addEventListener('click', () => {
    if (extraCount >= 4) return;
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

  const progress = h('progress', { max: 100, value: 0, id: 'upload-progress', 'aria-label': 'Upload progress' });
  const progressBox = h(
    'div',
    { class: 'progress', hidden: true },
    progress,
    h('span', { id: 'upload-pct', 'aria-hidden': 'true' }),
  );
  const limit = h('div', { class: 'alert', role: 'alert', id: 'quota-reached', hidden: true });

  const form = h(
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
      extra,
      addBtn,
    ),
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
    doc.zone,
    ref.zone,
    progressBox,
    limit,
    formError(),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', class: 'primary' }, 'Send for signing'),
      h('a', { href: '/app/transactions', 'data-link': true, class: 'button' }, 'Cancel'),
    ),
  );

  // One key per filled-in form: a retry after a lost answer returns the same transaction.
  let idem = crypto.randomUUID();
  form.addEventListener('input', () => (idem = crypto.randomUUID()));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    limit.hidden = true;
    const d = doc.file();
    const r = ref.file();
    const fd = new FormData();
    fd.append('signer_name', value(form, 'signer_name'));
    fd.append('signer_email', value(form, 'signer_email'));
    fd.append('attestation_type', value(form, 'attestation_type'));
    const extras = [...extra.querySelectorAll<HTMLInputElement>('input')].map((i) => i.value.trim()).filter(Boolean);
    if (extras.length) fd.append('signer_emails', extras.join(','));
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
    const pct = form.querySelector<HTMLElement>('#upload-pct')!;
    try {
      const created = await api.createTransaction(fd, idem, (f) => {
        progress.value = Math.round(f * 100);
        pct.textContent = `${Math.round(f * 100)}%`;
      });
      progress.value = 100;
      app.go(`/app/transactions/${created.id}`, { notice: `Sent. ${created.reference} is waiting for the signer.` });
    } catch (err) {
      progressBox.hidden = true;
      if (err instanceof ApiError && err.status === 402) {
        limit.replaceChildren(
          h('strong', {}, 'Monthly limit reached — upgrade or buy credits. '),
          h('a', { href: '/app/billing', 'data-link': true }, 'Go to billing'),
        );
        limit.hidden = false;
        limit.focus();
      } else showError(form, err);
    } finally {
      btn.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
  limit.setAttribute('tabindex', '-1');
  root.append(form);
  return { id: 'new', title: 'New transaction', nav: 'transactions', node: root };
}

// ---------------------------------------------------------------------------------------------
// Detail

const STEP_LABEL: Record<string, string> = {
  created: 'Link sent',
  consent_accepted: 'Consented, recording',
  capture_accepted: 'Video in analysis',
  passed: 'Passed',
  failed: 'Failed',
  declined: 'Declined',
};

export async function detailView(app: App, id: number): Promise<View> {
  let t: Detail;
  try {
    t = await api.transaction(id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      return {
        id: 'not-found',
        title: 'Not found',
        nav: 'transactions',
        node: h(
          'section',
          {},
          h('h1', { tabindex: -1 }, 'Transaction not found'),
          h('p', {}, h('a', { href: '/app/transactions', 'data-link': true }, 'Back to transactions')),
        ),
      };
    }
    throw err;
  }
  const root = h('section', {});
  const statusBox = h('span', { id: 'tx-status' }, chip(t.status));
  const actionMsg = h('p', { class: 'form-error', role: 'alert', hidden: true, id: 'action-error' });
  const actionOk = h('p', { class: 'ok', role: 'status', id: 'action-ok' });
  const resend = h('button', { type: 'button', id: 'resend' }, 'Resend link');
  const cancel = h('button', { type: 'button', id: 'cancel', class: 'danger' }, 'Cancel transaction');
  const actions = h('div', { class: 'row', id: 'actions' }, resend, cancel);
  const sync = () => {
    statusBox.replaceChildren(chip(t.status));
    actions.hidden = TERMINAL.has(t.status);
  };

  const act = async (btn: HTMLButtonElement, run: () => Promise<Summary>, done: string) => {
    actionMsg.hidden = true;
    actionOk.textContent = '';
    btn.disabled = true;
    try {
      const s = await run();
      t.status = s.status;
      // The timeline gained an entry: fetch it again (the summary has no events).
      t = await api.transaction(id).catch(() => t);
      sync();
      renderBody();
      actionOk.textContent = done;
    } catch (err) {
      actionMsg.textContent = message(err);
      actionMsg.hidden = false;
    } finally {
      btn.disabled = false;
    }
  };
  resend.addEventListener('click', async () => {
    if (
      !(await confirmDialog(
        'Resend the signing link?',
        `The link is emailed again to ${t.signer_email} and every signer who has not finished.`,
        'Resend',
        false,
      ))
    )
      return resend.focus();
    await act(resend, () => api.resend(id), 'The signing link was sent again.');
    resend.focus();
  });
  cancel.addEventListener('click', async () => {
    if (
      !(await confirmDialog(
        'Cancel this transaction?',
        'The signing links stop working and no certificate is issued. This cannot be undone.',
        'Cancel transaction',
      ))
    )
      return cancel.focus();
    await act(cancel, () => api.cancel(id), 'The transaction is cancelled.');
    root.querySelector<HTMLElement>('h1')?.focus();
  });

  const body = h('div', {});
  const renderBody = () => {
    const prefix = t.document_sha256.slice(0, 16);
    const cert =
      t.status === 'ledger_issued'
        ? (() => {
            const pdfErr = h('p', { class: 'form-error', role: 'alert', hidden: true });
            const pdf = h('button', { type: 'button', id: 'certificate-pdf' }, 'Download certificate (PDF)');
            pdf.addEventListener('click', async () => {
              pdfErr.hidden = true;
              try {
                const res = await fetch(`/api/transactions/${id}/certificate.pdf`, {
                  headers: { Authorization: `Bearer ${session.token ?? ''}` },
                });
                if (!res.ok)
                  throw new ApiError(
                    res.status,
                    ((await res.json().catch(() => ({}))) as { detail?: string }).detail ?? `download failed (${res.status})`,
                  );
                download(await res.blob(), `${t.reference}.pdf`);
              } catch (err) {
                pdfErr.textContent = message(err);
                pdfErr.hidden = false;
              }
            });
            const verify = `/verify?ref=${encodeURIComponent(t.reference)}&hash=${prefix}`;
            return h(
              'section',
              { class: 'card', 'aria-labelledby': 'h-cert', id: 'certificate' },
              h('h2', { id: 'h-cert' }, 'Certificate'),
              h('p', {}, 'Issued ', fmtDate(t.verified_at), '.'),
              h(
                'div',
                { class: 'row' },
                pdf,
                h('a', { class: 'button', href: verify, id: 'verify-link' }, 'Public verify link'),
                h(
                  'a',
                  { class: 'button', href: `/api/ledger/proof/${encodeURIComponent(t.reference)}?hash=${prefix}&download=1` },
                  'Evidence bundle (JSON)',
                ),
              ),
              h('p', { class: 'hint' }, 'Anyone can check it at ', h('code', {}, `${location.origin}${verify}`)),
              pdfErr,
            );
          })()
        : null;
    const signers = h(
      'table',
      { class: 'table stack', id: 'signers' },
      h('caption', { class: 'visually-hidden' }, 'Signers and their step'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Signer'),
          h('th', { scope: 'col' }, 'Order'),
          h('th', { scope: 'col' }, 'Step'),
          h('th', { scope: 'col' }, 'Check'),
          h('th', { scope: 'col' }, 'Attempts left'),
        ),
      ),
      h(
        'tbody',
        {},
        ...t.signers.map((s) =>
          h(
            'tr',
            {},
            h(
              'th',
              { scope: 'row' },
              s.name || s.email,
              s.index === 0 ? h('span', { class: 'hint' }, ' (primary)') : null,
              s.role === 'approver' ? h('span', { class: 'hint' }, ' (approver)') : null,
              s.name ? h('br', {}) : null,
              s.name ? h('span', { class: 'hint' }, s.email) : null,
            ),
            h('td', { 'data-label': 'Order' }, String(s.order ?? 1)),
            h('td', { 'data-label': 'Step' }, h('span', { class: `chip chip-${s.state}` }, STEP_LABEL[s.state] ?? s.state)),
            h(
              'td',
              { 'data-label': 'Check' },
              (s.verification_mode === 'biometric' ? 'Face match + liveness' : 'Liveness') + (s.webauthn ? ' + WebAuthn' : ''),
            ),
            h('td', { 'data-label': 'Attempts left' }, String(s.attempts_left)),
          ),
        ),
      ),
    );
    const timeline = h(
      'ol',
      { class: 'timeline', id: 'timeline' },
      ...t.events.map((e) =>
        h(
          'li',
          {},
          h('time', { datetime: e.at }, fmtDate(e.at)),
          ' ',
          h('strong', {}, e.type.replace(/_/g, ' ')),
          e.actor ? h('span', { class: 'hint' }, ` by ${e.actor}`) : null,
          e.detail ? h('div', { class: 'hint' }, e.detail) : null,
        ),
      ),
    );
    body.replaceChildren(
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Document'),
        h('dd', {}, t.document_name || '—'),
        h('dt', {}, 'SHA-256'),
        h('dd', {}, h('code', {}, t.document_sha256)),
        h('dt', {}, 'Attestation'),
        h('dd', {}, t.attestation_type),
        h('dt', {}, 'Created'),
        h('dd', {}, fmtDate(t.created_at)),
        ...(t.expires_at
          ? [h('dt', {}, t.status === 'expired' ? 'Expired' : 'Links expire'), h('dd', {}, fmtDate(t.expires_at))]
          : []),
        ...(t.reminders && t.reminders.max > 0
          ? [
              h('dt', {}, 'Reminders'),
              h(
                'dd',
                {},
                `${t.reminders.sent} of ${t.reminders.max} sent` +
                  (t.reminders.next_at && !TERMINAL.has(t.status) ? `; next ${fmtDate(t.reminders.next_at)}` : ''),
              ),
            ]
          : []),
        h('dt', {}, 'Signing link'),
        h(
          'dd',
          {},
          TERMINAL.has(t.status)
            ? h('span', { class: 'hint' }, 'No longer active')
            : h('code', {}, `${location.origin}/sign/${t.token}`),
        ),
      ),
      ...(cert ? [cert] : []),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'h-signers' },
        h('h2', { id: 'h-signers' }, 'Signers'),
        signers,
        t.viewers?.length
          ? h(
              'p',
              { class: 'hint', id: 'viewers' },
              `Receive the result (no signing): ${t.viewers.map((v) => `${v.name} <${v.email}>`).join(', ')}`,
            )
          : null,
      ),
      h('section', { class: 'card', 'aria-labelledby': 'h-timeline' }, h('h2', { id: 'h-timeline' }, 'Timeline'), timeline),
    );
  };

  root.append(
    h('p', {}, h('a', { href: '/app/transactions', 'data-link': true }, '← All transactions')),
    h('div', { class: 'head-row' }, h('h1', { tabindex: -1 }, t.reference || `Transaction ${t.id}`), statusBox),
    h('p', { class: 'lead' }, `${t.signer_name} · ${t.signer_email}`),
    actions,
    actionMsg,
    actionOk,
    body,
  );
  sync();
  renderBody();
  return { id: 'detail', title: t.reference || `Transaction ${t.id}`, nav: 'transactions', node: root };
}
