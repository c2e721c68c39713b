/**
 * What happens to a transaction's records (issue 21): a legal hold keeps all of it (no deletion, no
 * erasure) until released; a finished transaction that is not held can be deleted as a whole (the
 * certificate stays in the public log and still verifies).
 */
import { api, type Detail } from '../../api.js';
import { confirmDialog, field, fmtDate, formError, h, message, onSubmit, TERMINAL, value } from '../../dom.js';
import type { App } from '../../main.js';

type Changed = (done: string) => Promise<void>;
type Fail = { err: HTMLElement; fail: (e: unknown) => void };

/** On hold: since when and why, and the button that releases it. */
function heldNotice(t: Detail, held: NonNullable<Detail['legal_hold']>, said: Fail, changed: Changed) {
  const release = h('button', { type: 'button', id: 'release-hold' }, 'Release legal hold');
  release.addEventListener('click', async () => {
    release.disabled = true;
    said.err.hidden = true;
    try {
      await api.releaseLegalHold(t.id);
      await changed('The legal hold is released.');
    } catch (e) {
      said.fail(e);
      release.disabled = false;
    }
  });
  return [
    h(
      'p',
      { id: 'legal-hold' },
      h('strong', {}, 'On legal hold'),
      ` since ${fmtDate(held.since)}`,
      held.reason ? `: ${held.reason}` : '.',
      ' Nothing of it is deleted or erased until the hold is released.',
    ),
    h('div', { class: 'row' }, release),
  ];
}

/** Not on hold: the form that places the hold, with an optional reason. */
function holdForm(t: Detail, changed: Changed) {
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
  return hold;
}

/** Delete: the button (only for an ended transaction that is not held) and what it does or why it cannot. */
function deletePart(app: App, t: Detail, said: Fail) {
  const ended = TERMINAL.has(t.status);
  const del = h(
    'button',
    { type: 'button', class: 'danger', id: 'delete-tx', disabled: !ended || !!t.legal_hold },
    'Delete transaction',
  );
  del.addEventListener('click', async () => {
    said.err.hidden = true;
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
      said.fail(e);
      del.disabled = false;
    }
  });
  return [
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
  ];
}

/** The card; `changed` is called after a hold is placed or released, to show the transaction anew. */
export function recordsCard(app: App, t: Detail, changed: Changed): HTMLElement {
  const card = h(
    'section',
    { class: 'card', 'aria-labelledby': 'h-records', id: 'records' },
    h('h2', { id: 'h-records' }, 'Records'),
  );
  const err = h('p', { class: 'form-error', role: 'alert', hidden: true, id: 'records-error' });
  const said: Fail = {
    err,
    fail: (e: unknown) => {
      err.textContent = message(e);
      err.hidden = false;
    },
  };
  const held = t.legal_hold;
  if (held) card.append(...heldNotice(t, held, said, changed));
  else card.append(holdForm(t, changed));
  card.append(...deletePart(app, t, said), err);
  return card;
}
