/**
 * Security (issue 34 item 8): the signed-in member's passkeys (name, added, last used; add one with
 * the browser's authenticator, rename or remove one) and one-time recovery codes (how many are left; a new set
 * shown once, with copy and download, replacing every earlier code). The API decides what is allowed
 * (recovery codes only while a real second factor exists); its refusal is shown as it says.
 */
import { runWebauthn, webauthnSupported } from '../../sign/webauthn.js';
import { api, type Passkey, type SecurityStatus, type WebauthnResponse } from '../api.js';
import { announce, confirmDialog, download, field, fmtDate, formError, h, message, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';

/** A refused or cancelled authenticator prompt, in words (the DOMException's own text is technical). */
export function webauthnMessage(err: unknown): string {
  if (err instanceof DOMException) {
    if (err.name === 'NotAllowedError') return 'The passkey prompt was cancelled or timed out. Try again.';
    if (err.name === 'InvalidStateError') return 'This authenticator already holds a passkey for your account.';
    if (err.name === 'SecurityError') return 'Passkeys need a secure connection (https) on this address.';
  }
  return message(err);
}

type State = { status: SecurityStatus; keys: Passkey[] };
const errorSlot = () => h('p', { class: 'form-error', role: 'alert', hidden: true });
const fail = (slot: HTMLElement, err: unknown) => {
  slot.textContent = message(err);
  slot.hidden = false;
};

export async function securityView(app: App): Promise<View> {
  await app.profile();
  const [status, keys] = await Promise.all([api.securityStatus(), api.passkeys()]);
  const state: State = { status, keys };
  const passkeyCard = h('section', { class: 'card', 'aria-labelledby': 'h-passkeys', id: 'passkeys' });
  const codesCard = h('section', { class: 'card', 'aria-labelledby': 'h-recovery', id: 'recovery' });
  const refresh = async () => {
    [state.status, state.keys] = await Promise.all([api.securityStatus(), api.passkeys()]);
    passkeysSection(passkeyCard, state, refresh);
    recoverySection(codesCard, state);
  };
  passkeysSection(passkeyCard, state, refresh);
  recoverySection(codesCard, state);
  const root = h(
    'section',
    {},
    h('h1', { tabindex: -1 }, 'Security'),
    h(
      'p',
      { class: 'hint' },
      'How you sign in. Two-factor codes from an authenticator app are set up on the ',
      h('a', { href: '/app/account', 'data-link': true }, 'Account'),
      ' page.',
    ),
    passkeyCard,
    codesCard,
  );
  return { id: 'security', title: 'Security', nav: 'security', node: root };
}

function passkeysSection(card: HTMLElement, state: State, refresh: () => Promise<void>) {
  const err = errorSlot();
  card.replaceChildren(
    h('h2', { id: 'h-passkeys', tabindex: -1 }, 'Passkeys'),
    h(
      'p',
      {},
      'A passkey signs you in with this device’s screen lock or a security key, without a password. ' +
        'After a password, it also serves as the second step.',
    ),
    state.keys.length
      ? passkeyTable(card, state.keys, err, refresh)
      : h('p', { class: 'hint', 'data-passkeys': 'none' }, 'No passkeys yet.'),
    err,
    addPasskeyForm(card, refresh),
  );
}

function passkeyTable(card: HTMLElement, keys: Passkey[], err: HTMLElement, refresh: () => Promise<void>) {
  const removeButton = (k: Passkey) => {
    const b = h('button', { type: 'button', class: 'danger small', 'aria-label': `Remove passkey ${k.name}` }, 'Remove');
    b.addEventListener('click', async () => {
      const ok = await confirmDialog(
        `Remove the passkey “${k.name}”?`,
        'It will not sign you in any more. Remove it from the device or password manager too.',
        'Remove passkey',
      );
      if (!ok) return b.focus();
      b.disabled = true;
      err.hidden = true;
      try {
        await api.removePasskey(k.id);
        await refresh();
        announce(`Passkey ${k.name} removed.`);
        card.querySelector<HTMLElement>('h2')?.focus();
      } catch (e) {
        fail(err, e);
        b.disabled = false;
      }
    });
    return b;
  };
  const renameButton = (k: Passkey, cell: HTMLElement) => {
    const b = h('button', { type: 'button', class: 'small', 'aria-label': `Rename passkey ${k.name}` }, 'Rename');
    b.addEventListener('click', () => {
      cell.replaceChildren(renameForm(k, cell, b, refresh, card));
      cell.querySelector('input')?.focus();
    });
    return b;
  };
  const head = ['Name', 'Added', 'Last used'].map((c) => h('th', { scope: 'col' }, c));
  return h(
    'table',
    { class: 'table stack' },
    h('caption', { class: 'visually-hidden' }, 'Your passkeys'),
    h('thead', {}, h('tr', {}, ...head, h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
    h(
      'tbody',
      {},
      ...keys.map((k) => {
        const name = h('th', { scope: 'row' }, k.name);
        return h(
          'tr',
          { 'data-passkey': k.name },
          name,
          h('td', { 'data-label': 'Added' }, fmtDate(k.created_at)),
          h('td', { 'data-label': 'Last used' }, k.last_used_at ? fmtDate(k.last_used_at) : 'Never'),
          h('td', {}, h('div', { class: 'row' }, renameButton(k, name), removeButton(k))),
        );
      }),
    ),
  );
}

/** The name cell as a small form: Save renames (the API trims and checks it), Cancel or Escape puts the name back. */
function renameForm(k: Passkey, cell: HTMLElement, opener: HTMLButtonElement, refresh: () => Promise<void>, card: HTMLElement) {
  const cancel = h('button', { type: 'button', class: 'small' }, 'Cancel');
  const f = h(
    'form',
    { novalidate: true, class: 'rename', 'aria-label': `Rename passkey ${k.name}` },
    field('New name', 'name', { maxlength: 64, required: true, autocomplete: 'off', value: k.name }),
    formError(),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary small' }, 'Save'), cancel),
  );
  const close = () => {
    cell.replaceChildren(k.name);
    opener.focus();
  };
  cancel.addEventListener('click', close);
  f.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });
  onSubmit(f, async () => {
    const renamed = await api.renamePasskey(k.id, value(f, 'name'));
    await refresh();
    announce(`Passkey renamed to ${renamed.name}.`);
    card.querySelector<HTMLElement>(`tr[data-passkey="${CSS.escape(renamed.name)}"] button`)?.focus();
  });
  return f;
}

function addPasskeyForm(card: HTMLElement, refresh: () => Promise<void>) {
  if (!webauthnSupported())
    return h('p', { class: 'hint', 'data-passkeys': 'unsupported' }, 'This browser cannot create passkeys.');
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-passkey-add', id: 'passkey-add' },
    h('h3', { id: 'h-passkey-add' }, 'Add a passkey'),
    field(
      'Name',
      'name',
      { maxlength: 64, autocomplete: 'off', placeholder: 'e.g. Work laptop' },
      { hint: 'So you can tell your passkeys apart. Optional.' },
    ),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Add a passkey'),
  );
  onSubmit(f, async () => {
    const options = await api.passkeyOptions();
    let response: WebauthnResponse;
    try {
      response = (await runWebauthn('registration', options)) as WebauthnResponse;
    } catch (e) {
      throw new Error(webauthnMessage(e));
    }
    const added = await api.registerPasskey(value(f, 'name').trim(), response);
    await refresh();
    announce(`Passkey ${added.name} added.`);
    card.querySelector<HTMLElement>('h2')?.focus();
  });
  return f;
}

function recoverySection(card: HTMLElement, state: State, fresh?: string[]) {
  const left = state.status.recovery_codes_left;
  card.replaceChildren(
    h('h2', { id: 'h-recovery', tabindex: -1 }, 'Recovery codes'),
    h('p', {}, 'If you lose your passkeys or authenticator app, a recovery code replaces the second step of a sign-in, once.'),
    h('p', { 'data-codes-left': left }, left === 1 ? '1 unused code left.' : `${left} unused codes left.`),
  );
  if (fresh) card.append(codeList(fresh));
  if (!state.status.totp_enabled && state.status.passkeys === 0) {
    card.append(
      h('p', { class: 'hint', 'data-codes': 'no-factor' }, 'Add a passkey or turn on two-factor authentication first.'),
    );
    return;
  }
  const err = errorSlot();
  const gen = h('button', { type: 'button', class: fresh ? '' : 'primary', id: 'recovery-generate' }, 'Generate new codes');
  gen.addEventListener('click', async () => {
    const replaces = left > 0 || !!fresh;
    if (replaces) {
      const ok = await confirmDialog(
        'Replace your recovery codes?',
        'Every earlier code stops working at once, including any you wrote down.',
        'Generate new codes',
      );
      if (!ok) return gen.focus();
    }
    gen.disabled = true;
    err.hidden = true;
    try {
      const codes = await api.generateRecoveryCodes();
      state.status = await api.securityStatus();
      recoverySection(card, state, codes);
      card.querySelector<HTMLElement>('#recovery-codes-title')?.focus();
      announce(`${codes.length} new recovery codes.${replaces ? ' Earlier codes no longer work.' : ''}`);
    } catch (e) {
      fail(err, e);
      gen.disabled = false;
    }
  });
  card.append(
    h('p', { class: 'hint' }, 'Generating a new set makes every earlier code stop working. The new codes are shown once.'),
    h('div', { class: 'row' }, gen),
    err,
  );
}

function codeList(codes: string[]) {
  const text = codes.join('\n') + '\n';
  const copy = h('button', { type: 'button', id: 'recovery-copy' }, 'Copy');
  const save = h('button', { type: 'button', id: 'recovery-download' }, 'Download');
  const done = h('p', { role: 'status', class: 'ok' });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      done.textContent = 'Copied.';
    } catch {
      done.textContent = 'The browser refused the clipboard: select the codes and copy them, or download them.';
    }
  });
  save.addEventListener('click', () => {
    download(new Blob([text], { type: 'text/plain' }), 'signet-recovery-codes.txt');
    done.textContent = 'Downloaded.';
  });
  return h(
    'div',
    { class: 'notice', id: 'recovery-new' },
    h('h3', { id: 'recovery-codes-title', tabindex: -1 }, 'Your new recovery codes'),
    h(
      'p',
      {},
      h('strong', {}, 'Save them now: they are not shown again. '),
      'Each works once. Any earlier codes no longer work.',
    ),
    h(
      'ol',
      { id: 'recovery-codes', class: 'codes', 'aria-labelledby': 'recovery-codes-title' },
      ...codes.map((c) => h('li', {}, h('code', {}, c))),
    ),
    h('div', { class: 'row' }, copy, save),
    done,
  );
}
