/** Webhooks: the account's endpoints (create with the secret shown once, enable/disable, delete) and each one's recent deliveries. */
import { webhooksApi, type WebhookDelivery, type WebhookEndpoint } from '../api.js';
import { announce, confirmDialog, field, fmtDate, formError, h, message, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';

type EventType = WebhookEndpoint['event_types'][number];
/** Every event type, in the order the form lists them (the record makes the list complete). */
const EVENT_LIST: Record<EventType, true> = {
  'transaction.created': true,
  'signer.link_sent': true,
  'signer.opened': true,
  'signer.consented': true,
  'signer.verified': true,
  'signer.failed': true,
  'signer.declined': true,
  'transaction.completed': true,
  'transaction.expired': true,
  'transaction.cancelled': true,
  'certificate.issued': true,
  'signed_document.ready': true,
  'bulk.completed': true,
};
const EVENT_TYPES = Object.keys(EVENT_LIST) as EventType[];
const isEventType = (v: string): v is EventType => v in EVENT_LIST;

const DELIVERY_LABEL: Record<WebhookDelivery['status'], string> = {
  pending: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function state(e: WebhookEndpoint) {
  if (e.enabled) return 'Enabled';
  return e.disabled_reason === 'failing' ? 'Disabled after repeated failures' : 'Disabled';
}

/** The form that adds an endpoint (URL, events, description, test mode). */
function endpointForm() {
  const boxes = h(
    'fieldset',
    { class: 'field', 'data-field': 'event_types' },
    h('legend', {}, 'Events'),
    ...EVENT_TYPES.map((t) =>
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'event_types', value: t }), ' ', h('code', {}, t)),
    ),
    h('p', { class: 'field-error', hidden: true }),
  );
  return h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-newhook', class: 'card' },
    h('h2', { id: 'h-newhook' }, 'Add an endpoint'),
    field('URL', 'url', { type: 'url', required: true, maxlength: 2000, placeholder: 'https://example.com/hooks/signet' }),
    boxes,
    field('Description', 'description', { maxlength: 500 }, { hint: 'Optional; only you see it.' }),
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name: 'test_mode', value: 'test' }),
      ' Test mode: receives only test transactions’ events (test API keys see only these endpoints)',
    ),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Add endpoint'),
  );
}

/** The new endpoint's signing secret, shown once. */
const secretNotice = (secret: string) =>
  h(
    'div',
    { class: 'alert warn', role: 'region', 'aria-labelledby': 'h-hooksecret' },
    h('h2', { id: 'h-hooksecret', tabindex: -1 }, 'Signing secret'),
    h('p', {}, h('strong', {}, 'Copy it now: it is shown only this once.'), ' Verify each delivery with it (Standard Webhooks).'),
    h('p', {}, h('code', { id: 'new-hook-secret', class: 'secret' }, secret)),
  );

/** A table with a header row of `cols` and an unlabelled actions column. */
const actionTable = (cols: string[], rows: HTMLElement[], caption?: string) =>
  h(
    'table',
    { class: 'table stack' },
    caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...cols.map((c) => h('th', { scope: 'col' }, c)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
      ),
    ),
    h('tbody', {}, ...rows),
  );

/** One delivery: event, transaction, status, attempts, last answer, created, and Redeliver while the endpoint is enabled. */
function deliveryRow(e: WebhookEndpoint, d: WebhookDelivery, redeliver: () => Promise<void>) {
  const last = d.attempts[d.attempts.length - 1];
  const again = h('button', { type: 'button', class: 'small', 'data-redeliver': d.id }, 'Redeliver');
  again.addEventListener('click', () => void redeliver());
  return h(
    'tr',
    { 'data-delivery': d.id },
    h('th', { scope: 'row' }, h('code', {}, d.event_type)),
    h('td', { 'data-label': 'Transaction' }, String(d.transaction_id)),
    h('td', { 'data-label': 'Status' }, DELIVERY_LABEL[d.status]),
    h('td', { 'data-label': 'Attempts' }, String(d.attempts.length)),
    h('td', { 'data-label': 'Last answer' }, last ? `${last.status || last.result} in ${last.latency_ms} ms` : '—'),
    h('td', { 'data-label': 'Created' }, fmtDate(d.created_at)),
    h('td', {}, e.enabled ? again : null),
  );
}

/** Endpoints disabled for failing too long (the owner was mailed too), said above the list. */
const failingText = (failing: WebhookEndpoint[]) =>
  h(
    'p',
    {},
    `${failing.length === 1 ? 'An endpoint was' : `${failing.length} endpoints were`} disabled because every delivery failed for days: `,
    ...failing.map((e, i) => h('span', {}, i ? ', ' : '', h('code', {}, e.url))),
    '. Fix the receiver, enable it again and redeliver what it missed from its deliveries.',
  );

type EndpointActions = { deliveries: () => void; toggle: () => Promise<void>; remove: () => Promise<void> };

/** One endpoint: URL (and description), mode, events, state, and its Deliveries, Enable/Disable and Delete buttons. */
function endpointRow(e: WebhookEndpoint, act: EndpointActions) {
  const log = h('button', { type: 'button', class: 'small', 'data-log': e.id }, 'Deliveries');
  log.addEventListener('click', act.deliveries);
  const toggle = h('button', { type: 'button', class: 'small', 'data-toggle': e.id }, e.enabled ? 'Disable' : 'Enable');
  toggle.addEventListener('click', () => void act.toggle());
  const del = h(
    'button',
    { type: 'button', class: 'danger small', 'data-delete': e.id, 'aria-label': `Delete endpoint ${e.url}` },
    'Delete',
  );
  del.addEventListener('click', async () => {
    const ok = await confirmDialog(
      'Delete this endpoint?',
      `${e.url} receives nothing more; pending deliveries are cancelled.`,
      'Delete',
    );
    if (!ok) return del.focus();
    await act.remove();
  });
  return h(
    'tr',
    { 'data-endpoint': e.id },
    h('th', { scope: 'row' }, h('code', {}, e.url), e.description ? h('div', { class: 'hint' }, e.description) : null),
    h('td', { 'data-label': 'Mode' }, e.mode === 'test' ? 'Test' : 'Live'),
    h('td', { 'data-label': 'Events' }, e.event_types.join(', ')),
    h('td', { 'data-label': 'State' }, state(e)),
    h('td', {}, h('div', { class: 'row' }, log, toggle, del)),
  );
}

type Attempt = (fn: () => Promise<void>) => Promise<void>;

/** The deliveries panel: shows an endpoint's recent deliveries, each with Redeliver. */
function deliveriesPanel(logBox: HTMLElement, attempt: Attempt) {
  const show = (e: WebhookEndpoint): Promise<void> =>
    attempt(async () => {
      const items = await webhooksApi.deliveries(e.id);
      const redeliver = async (d: WebhookDelivery) => {
        try {
          await webhooksApi.redeliver(e.id, d.id);
          announce('Queued for delivery.');
          await show(e);
        } catch (err) {
          announce(message(err));
        }
      };
      logBox.replaceChildren(
        h('h2', { id: 'h-log', tabindex: -1 }, `Recent deliveries to ${e.url}`),
        items.length
          ? actionTable(
              ['Event', 'Transaction', 'Status', 'Attempts', 'Last answer', 'Created'],
              items.map((d) => deliveryRow(e, d, () => redeliver(d))),
            )
          : h('p', { class: 'hint' }, 'No deliveries yet.'),
      );
      logBox.hidden = false;
      logBox.querySelector<HTMLElement>('h2')?.focus();
    });
  return show;
}

type ListParts = { listBox: HTMLElement; failingNotice: HTMLElement; logBox: HTMLElement };

/** The endpoints list: the failing notice and a row per endpoint; toggling or deleting one renders it again. */
function endpointList(state: { endpoints: WebhookEndpoint[] }, parts: ListParts, attempt: Attempt) {
  const { listBox, failingNotice, logBox } = parts;
  const showDeliveries = deliveriesPanel(logBox, attempt);
  const render = (): void => {
    const { endpoints } = state;
    const failing = endpoints.filter((e) => !e.enabled && e.disabled_reason === 'failing');
    failingNotice.hidden = !failing.length;
    failingNotice.replaceChildren(failingText(failing));
    if (!endpoints.length) return listBox.replaceChildren(h('p', { class: 'hint' }, 'No endpoints yet.'));
    const rows = endpoints.map((e) =>
      endpointRow(e, {
        deliveries: () => void showDeliveries(e),
        toggle: () =>
          attempt(async () => {
            const u = await webhooksApi.update(e.id, { enabled: !e.enabled });
            state.endpoints = state.endpoints.map((x) => (x.id === e.id ? u : x));
            render();
            announce(`${u.url} ${u.enabled ? 'enabled' : 'disabled'}.`);
          }),
        remove: () =>
          attempt(async () => {
            await webhooksApi.remove(e.id);
            state.endpoints = state.endpoints.filter((x) => x.id !== e.id);
            render();
            logBox.hidden = true;
            announce('Endpoint deleted.');
          }),
      }),
    );
    listBox.replaceChildren(actionTable(['URL', 'Mode', 'Events', 'State'], rows, 'Your webhook endpoints'));
  };
  return render;
}

export async function webhooksView(_app: App): Promise<View> {
  const state = { endpoints: await webhooksApi.list() };
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'Webhooks'));
  const form = endpointForm();
  const created = h('div', { id: 'hook-created', hidden: true });
  const listBox = h('div', { id: 'hooks' });
  const listError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const failingNotice = h('div', { class: 'alert warn', role: 'status', id: 'hooks-failing', hidden: true });
  const logBox = h('section', { class: 'card', id: 'deliveries', 'aria-labelledby': 'h-log', hidden: true });
  /** Runs an action of the list; its refusal is said above the list. */
  const attempt: Attempt = async (fn) => {
    try {
      await fn();
    } catch (err) {
      listError.textContent = message(err);
      listError.hidden = false;
    }
  };
  const renderList = endpointList(state, { listBox, failingNotice, logBox }, attempt);

  onSubmit(form, async (f) => {
    const types = [...f.querySelectorAll<HTMLInputElement>('input[name="event_types"]:checked')]
      .map((c) => c.value)
      .filter(isEventType);
    const e = await webhooksApi.create({
      url: value(f, 'url').trim(),
      event_types: types,
      description: value(f, 'description').trim(),
      mode: f.querySelector<HTMLInputElement>('input[name="test_mode"]')?.checked ? 'test' : 'live',
    });
    state.endpoints = [e, ...state.endpoints];
    renderList();
    f.reset();
    created.replaceChildren(secretNotice(e.secret));
    created.hidden = false;
    created.querySelector<HTMLElement>('h2')?.focus();
  });

  renderList();
  root.append(
    form,
    created,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'h-hooks' },
      h('h2', { id: 'h-hooks' }, 'Endpoints'),
      failingNotice,
      listError,
      listBox,
    ),
    logBox,
  );
  return { id: 'webhooks', title: 'Webhooks', nav: 'webhooks', node: root };
}
