/** A transaction's detail page: its parts (detail-parts.ts, certificate.ts, records.ts) and the actions resend and cancel. */
import { api, ApiError, dataMode, type Detail, type Summary } from '../../api.js';
import { chip, confirmDialog, h, message, TERMINAL } from '../../dom.js';
import type { App, View } from '../../main.js';
import { certificateCard } from './certificate.js';
import { facts, signersCard, timelineCard } from './detail-parts.js';
import { recordsCard } from './records.js';

/**
 * The transaction in the mode the switch shows, else in the other one: a link to a test transaction
 * opens it (and turns the switch to test data) instead of saying it does not exist.
 */
async function inEitherMode(id: number): Promise<Detail> {
  try {
    return await api.transaction(id);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    const before = dataMode.test;
    dataMode.set(!before);
    try {
      return await api.transaction(id);
    } catch {
      dataMode.set(before);
      throw err;
    }
  }
}

export async function detailView(app: App, id: number): Promise<View> {
  let t: Detail;
  try {
    t = await inEitherMode(id);
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
  const renderBody = () =>
    body.replaceChildren(
      facts(t),
      ...(t.status === 'ledger_issued' ? [certificateCard(t)] : []),
      signersCard(t),
      recordsCard(app, t, refresh),
      timelineCard(t),
    );
  /** Shows the transaction anew after a change on the page (a hold placed or released). */
  const refresh = async (done: string) => {
    t = await api.transaction(id);
    sync();
    renderBody();
    actionOk.textContent = done;
    root.querySelector<HTMLElement>('#release-hold, #place-hold')?.focus();
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
