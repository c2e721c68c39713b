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

/** The page for an id that is in neither mode. */
const notFound = (): View => ({
  id: 'not-found',
  title: 'Not found',
  nav: 'transactions',
  node: h(
    'section',
    {},
    h('h1', { tabindex: -1 }, 'Transaction not found'),
    h('p', {}, h('a', { href: '/app/transactions', 'data-link': true }, 'Back to transactions')),
  ),
});

/** Asks before the link goes out again to every signer who has not finished. */
const askResend = (t: Detail) =>
  confirmDialog(
    'Resend the signing link?',
    `The link is emailed again to ${t.signer_email} and every signer who has not finished.`,
    'Resend',
    false,
  );

/** Asks before the transaction is cancelled for good. */
const askCancel = () =>
  confirmDialog(
    'Cancel this transaction?',
    'The signing links stop working and no certificate is issued. This cannot be undone.',
    'Cancel transaction',
  );

/** The page's head: back link, reference with its status, and the primary signer. */
const pageHead = (t: Detail, statusBox: HTMLElement) => [
  h('p', {}, h('a', { href: '/app/transactions', 'data-link': true }, '← All transactions')),
  h('div', { class: 'head-row' }, h('h1', { tabindex: -1 }, t.reference || `Transaction ${t.id}`), statusBox),
  h('p', { class: 'lead' }, `${t.signer_name} · ${t.signer_email}`),
];

type Act = (btn: HTMLButtonElement, run: () => Promise<Summary>, done: string) => Promise<void>;

/** Resend link and Cancel transaction, each asked first; focus returns to Resend, or to the heading after a cancel. */
function actionRow(id: number, current: () => Detail, act: Act, focusHeading: () => void) {
  const resend = h('button', { type: 'button', id: 'resend' }, 'Resend link');
  const cancel = h('button', { type: 'button', id: 'cancel', class: 'danger' }, 'Cancel transaction');
  resend.addEventListener('click', async () => {
    if (!(await askResend(current()))) return resend.focus();
    await act(resend, () => api.resend(id), 'The signing link was sent again.');
    resend.focus();
  });
  cancel.addEventListener('click', async () => {
    if (!(await askCancel())) return cancel.focus();
    await act(cancel, () => api.cancel(id), 'The transaction is cancelled.');
    focusHeading();
  });
  return h('div', { class: 'row', id: 'actions' }, resend, cancel);
}

export async function detailView(app: App, id: number): Promise<View> {
  let t: Detail;
  try {
    t = await inEitherMode(id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return notFound();
    throw err;
  }
  const root = h('section', {});
  const statusBox = h('span', { id: 'tx-status' }, chip(t.status));
  const actionMsg = h('p', { class: 'form-error', role: 'alert', hidden: true, id: 'action-error' });
  const actionOk = h('p', { class: 'ok', role: 'status', id: 'action-ok' });
  const body = h('div', {});
  const sync = () => {
    statusBox.replaceChildren(chip(t.status));
    actions.hidden = TERMINAL.has(t.status);
  };
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

  const act: Act = async (btn, run, done) => {
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
  const actions = actionRow(
    id,
    () => t,
    act,
    () => root.querySelector<HTMLElement>('h1')?.focus(),
  );

  root.append(...pageHead(t, statusBox), actions, actionMsg, actionOk, body);
  sync();
  renderBody();
  return { id: 'detail', title: t.reference || `Transaction ${t.id}`, nav: 'transactions', node: root };
}
