/**
 * What happens to a transaction's records (issue 21): a legal hold keeps all of it (no deletion, no
 * erasure) until released; a finished transaction that is not held can be deleted as a whole (the
 * certificate stays in the public log and still verifies).
 */
import { api, type Detail } from '../../api.js';
import { confirmDialog, field, fmtDate, formError, h, message, onSubmit, TERMINAL, value } from '../../dom.js';
import type { App } from '../../main.js';

/** The card; `changed` is called after a hold is placed or released, to show the transaction anew. */
export function recordsCard(app: App, t: Detail, changed: (done: string) => Promise<void>): HTMLElement {
  const card = h(
    'section',
    { class: 'card', 'aria-labelledby': 'h-records', id: 'records' },
    h('h2', { id: 'h-records' }, 'Records'),
  );
  const err = h('p', { class: 'form-error', role: 'alert', hidden: true, id: 'records-error' });
  const fail = (e: unknown) => {
    err.textContent = message(e);
    err.hidden = false;
  };

  if (t.legal_hold) {
    const release = h('button', { type: 'button', id: 'release-hold' }, 'Release legal hold');
    release.addEventListener('click', async () => {
      release.disabled = true;
      err.hidden = true;
      try {
        await api.releaseLegalHold(t.id);
        await changed('The legal hold is released.');
      } catch (e) {
        fail(e);
        release.disabled = false;
      }
    });
    card.append(
      h(
        'p',
        { id: 'legal-hold' },
        h('strong', {}, 'On legal hold'),
        ` since ${fmtDate(t.legal_hold.since)}`,
        t.legal_hold.reason ? `: ${t.legal_hold.reason}` : '.',
        ' Nothing of it is deleted or erased until the hold is released.',
      ),
      h('div', { class: 'row' }, release),
    );
  } else {
    const hold = h(
      'form',
      { novalidate: true, 'aria-labelledby': 'h-hold', id: 'legal-hold-form' },
      h('h3', { id: 'h-hold' }, 'Legal hold'),
      field(
        'Reason (optional)',
        'reason',
        { maxlength: 500, autocomplete: 'off' },
        { hint: 'Keeps everything of this transaction until released.' },
      ),
      formError(),
      h('button', { type: 'submit', id: 'place-hold' }, 'Place on legal hold'),
    );
    onSubmit(hold, async (f) => {
      await api.setLegalHold(t.id, value(f, 'reason').trim());
      await changed('The transaction is on legal hold.');
    });
    card.append(hold);
  }

  const ended = TERMINAL.has(t.status);
  const del = h(
    'button',
    { type: 'button', class: 'danger', id: 'delete-tx', disabled: !ended || !!t.legal_hold },
    'Delete transaction',
  );
  del.addEventListener('click', async () => {
    err.hidden = true;
    const sure = await confirmDialog(
      'Delete this transaction?',
      'Its document, photos, recordings, signed PDF and personal data are deleted. The certificate stays in the public log and still verifies. This cannot be undone.',
      'Delete transaction',
    );
    if (!sure) return del.focus();
    del.disabled = true;
    try {
      await api.deleteTransaction(t.id);
      app.go('/app/transactions', { notice: `${t.reference || `Transaction ${t.id}`} is deleted.` });
    } catch (e) {
      fail(e);
      del.disabled = false;
    }
  });
  card.append(
    h('h3', {}, 'Delete'),
    h(
      'p',
      { class: 'hint', id: 'delete-hint' },
      t.legal_hold
        ? 'Release the legal hold to delete it.'
        : ended
          ? 'Deletes the whole transaction; the certificate stays verifiable.'
          : 'It can be deleted once it has ended (cancel it first).',
    ),
    h('div', { class: 'row' }, del),
    err,
  );
  return card;
}
