/** Developer: API keys (create, shown once with copy, list, revoke) and a curl quick-start. */
import { api, type ApiKey, type KeyScope } from '../api.js';
import { announce, confirmDialog, field, fmtDate, formError, h, message, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';

/** The quick start, one option a line, so that each line fits the card at 1280 px with a real key in it. */
function curl(key: string) {
  const base = location.origin;
  const auth = `  -H "X-API-Key: ${key}"`;
  return [
    `# Who does this key belong to?`,
    `curl -X POST ${base}/api/auth/me \\`,
    auth,
    ``,
    `# Your transactions, newest first`,
    `curl "${base}/api/transactions?limit=20" \\`,
    auth,
    ``,
    `# Send a document for signing`,
    `curl ${base}/api/transactions \\`,
    `${auth} \\`,
    `  -F signer_name="Ada Lovelace" -F signer_email=ada@example.com \\`,
    `  -F document=@contract.pdf -F reference=@face.jpg`,
  ].join('\n');
}

/** The form that creates a key (name, mode, access, expiry). */
function keyForm() {
  return h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-newkey', class: 'card' },
    h('h2', { id: 'h-newkey' }, 'Create an API key'),
    field(
      'Key name',
      'name',
      { required: true, maxlength: 100, placeholder: 'e.g. CRM integration' },
      { hint: 'Only you see the name; it helps you tell keys apart.' },
    ),
    field(
      'Mode',
      'mode',
      {},
      {
        tag: 'select',
        options: [
          ['live', 'Live: real transactions, uses your plan'],
          ['test', 'Test: free, test data only (sgn_test_…)'],
        ],
        hint: 'Test keys see only test transactions; their certificates are sealed in the test log, never the live one.',
      },
    ),
    field(
      'Access',
      'scopes',
      {},
      {
        tag: 'select',
        options: [
          ['', 'Everything your role allows'],
          ['read', 'Read only'],
          ['read,write', 'Read and write (send and act on transactions)'],
        ],
        hint: 'A key never does more than your role allows, also after your role changes.',
      },
    ),
    field('Expires on', 'expires', { type: 'date' }, { hint: 'Optional: the key stops working at the start of this day (UTC).' }),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Create key'),
  );
}

/** One key: name, prefix, mode, scopes, expiry, created, last used and its Revoke button. */
function keyRow(k: ApiKey, revoke: (btn: HTMLButtonElement) => void) {
  const btn = h(
    'button',
    { type: 'button', class: 'danger small', 'data-revoke': k.id, 'aria-label': `Revoke key ${k.name}` },
    'Revoke',
  );
  btn.addEventListener('click', () => revoke(btn));
  return h(
    'tr',
    { 'data-key': k.id },
    h('th', { scope: 'row' }, k.name),
    h('td', { 'data-label': 'Prefix' }, h('code', {}, k.prefix)),
    h('td', { 'data-label': 'Mode' }, k.mode === 'test' ? 'Test' : 'Live'),
    h('td', { 'data-label': 'Scopes' }, k.scopes.join(', ')),
    h('td', { 'data-label': 'Expires' }, k.expires_at ? fmtDate(k.expires_at) : 'Never'),
    h('td', { 'data-label': 'Created' }, fmtDate(k.created_at)),
    h('td', { 'data-label': 'Last used' }, k.last_used_at ? fmtDate(k.last_used_at) : 'Never'),
    h('td', {}, btn),
  );
}

/** The keys' table around their rows. */
const keysTable = (rows: HTMLElement[]) =>
  h(
    'table',
    { class: 'table stack' },
    h('caption', { class: 'visually-hidden' }, 'Your API keys'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Name', 'Prefix', 'Mode', 'Scopes', 'Expires', 'Created', 'Last used'].map((c) => h('th', { scope: 'col' }, c)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
      ),
    ),
    h('tbody', {}, ...rows),
  );

/** The new key, shown once, with a Copy button (that selects the key when the clipboard is refused). */
function secretNotice(k: ApiKey & { key: string }) {
  const secret = h('code', { id: 'new-key', class: 'secret' }, k.key);
  const copy = h('button', { type: 'button', id: 'copy-key' }, 'Copy key');
  const copied = h('span', { role: 'status', class: 'hint' });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(k.key);
      copied.textContent = 'Copied.';
    } catch {
      // No clipboard permission: select the key so Ctrl+C copies it.
      const range = document.createRange();
      range.selectNodeContents(secret);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      copied.textContent = 'Selected — press Ctrl+C to copy.';
    }
  });
  return h(
    'div',
    { class: 'alert warn', role: 'region', 'aria-labelledby': 'h-secret' },
    h('h2', { id: 'h-secret', tabindex: -1 }, `Your new key “${k.name}”`),
    h(
      'p',
      {},
      h('strong', {}, 'Copy it now: it is shown only this once.'),
      ' Signet keeps only a hash; if you lose it, revoke it and create another.',
    ),
    h('p', {}, secret),
    h('div', { class: 'row' }, copy, copied),
  );
}

/** The quick-start card around the curl lines. */
const quickCard = (quick: HTMLElement) =>
  h(
    'section',
    { class: 'card', 'aria-labelledby': 'h-quick' },
    h('h2', { id: 'h-quick' }, 'Quick start'),
    h(
      'p',
      {},
      'Send the key in the ',
      h('code', {}, 'X-API-Key'),
      ' header. The full reference is ',
      h('a', { href: '/api/openapi.json' }, 'the OpenAPI document'),
      '.',
    ),
    quick,
  );

export async function developerView(_app: App): Promise<View> {
  let keys = await api.apiKeys();
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'Developer'));
  const created = h('div', { id: 'key-created', hidden: true });
  const form = keyForm();
  const quick = h(
    'pre',
    { class: 'code', id: 'quickstart', tabindex: 0, 'aria-label': 'curl quick-start' },
    curl('<YOUR_API_KEY>'),
  );
  const listBox = h('div', { id: 'keys' });
  const listError = h('p', { class: 'form-error', role: 'alert', hidden: true });

  const renderList = () => {
    if (!keys.length) return listBox.replaceChildren(h('p', { class: 'hint' }, 'No API keys yet.'));
    listBox.replaceChildren(keysTable(keys.map((k) => keyRow(k, (btn) => void doRevoke(k, btn)))));
  };
  const doRevoke = async (k: ApiKey, btn: HTMLButtonElement) => {
    const ok = await confirmDialog(
      `Revoke “${k.name}”?`,
      `Requests with the key ${k.prefix}… stop working at once. This cannot be undone.`,
      'Revoke key',
    );
    if (!ok) return btn.focus();
    listError.hidden = true;
    try {
      await api.revokeApiKey(k.id);
      keys = keys.filter((x) => x.id !== k.id);
      renderList();
      announce(`Key ${k.name} revoked.`);
      (form.querySelector('input') as HTMLInputElement).focus();
    } catch (err) {
      listError.textContent = message(err);
      listError.hidden = false;
      btn.focus();
    }
  };

  onSubmit(form, async (f) => {
    const scopes = value(f, 'scopes').split(',').filter(Boolean) as KeyScope[];
    const day = value(f, 'expires');
    const k = await api.createApiKey(
      value(f, 'name').trim(),
      value(f, 'mode') === 'test' ? 'test' : 'live',
      scopes,
      day ? new Date(`${day}T00:00:00Z`).toISOString() : undefined,
    );
    keys = [k, ...keys];
    renderList();
    f.reset();
    created.replaceChildren(secretNotice(k));
    created.hidden = false;
    quick.textContent = curl(k.key);
    created.querySelector<HTMLElement>('h2')?.focus();
  });

  renderList();
  root.append(
    form,
    created,
    h('section', { class: 'card', 'aria-labelledby': 'h-keys' }, h('h2', { id: 'h-keys' }, 'API keys'), listError, listBox),
    quickCard(quick),
  );
  return { id: 'developer', title: 'Developer', nav: 'developer', node: root };
}
