/**
 * The account audit log (issue 34 item 3), for owners and admins: entries newest first (time, actor,
 * action, target, client), filtered by action or action prefix, actor and dates; older entries by
 * cursor ("Load more"); the filtered log exported as CSV or JSON. Action names are shown as the API
 * gives them: the server adds new ones without a change here.
 */
import { api, type AuditEvent, type AuditFilter, type Member } from '../api.js';
import { announce, download, field, fmtDate, formError, h, message, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';

const PAGE = 50;
const MANAGERS = new Set(['owner', 'admin']);

/** Roles that may read the log (the API refuses the others; the nav hides it from them). */
export const readsAuditLog = (role: string) => MANAGERS.has(role);

/** A yyyy-mm-dd day of the date input as the start of that day in the browser's time zone, ISO. */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + plusDays).toISOString();
};

function filterOf(f: HTMLFormElement): AuditFilter {
  const from = value(f, 'from');
  const to = value(f, 'to');
  const action = value(f, 'action').trim();
  const actor = value(f, 'actor_id');
  return {
    ...(action ? { action } : {}),
    ...(actor ? { actor_id: actor } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    // "To" is the last day shown, whole: the API's `to` is exclusive.
    ...(to ? { to: dayStart(to, 1) } : {}),
  };
}

/** The browser and system of a user agent, short enough for a table cell (the whole string in the title). */
const shortAgent = (ua: string) => {
  if (!ua) return '';
  const browser = /(Edg|OPR|Firefox|Chrome|Safari)\/[\d.]+/.exec(ua)?.[0]?.replace(/\/(\d+)[\d.]*/, ' $1') ?? ua.slice(0, 40);
  const os = /(Windows|Mac OS X|Android|iPhone|Linux)/.exec(ua)?.[1];
  return os ? `${browser}, ${os}` : browser;
};

function row(e: AuditEvent) {
  const details = Object.entries(e.details);
  return h(
    'tr',
    { 'data-action': e.action, 'data-id': e.id },
    h('td', { 'data-label': 'Time' }, h('time', { datetime: e.at }, fmtDate(e.at))),
    h('td', { 'data-label': 'Actor' }, e.actor_email || e.actor_id || '—'),
    h(
      'th',
      { scope: 'row', 'data-label': 'Action' },
      h('code', {}, e.action),
      details.length ? h('span', { class: 'hint audit-details' }, ' ', details.map(([k, v]) => `${k}: ${v}`).join(', ')) : null,
    ),
    h('td', { 'data-label': 'Target' }, e.target || '—'),
    h(
      'td',
      { 'data-label': 'Client' },
      e.ip || '—',
      e.user_agent ? h('span', { class: 'hint', title: e.user_agent }, h('br', {}), shortAgent(e.user_agent)) : null,
    ),
  );
}

function filterForm(members: Member[]) {
  return h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-audit-filter', id: 'audit-filter', class: 'card' },
    h('h2', { id: 'h-audit-filter' }, 'Filter'),
    h(
      'div',
      { class: 'row wrap' },
      field(
        'Action',
        'action',
        { placeholder: 'auth.', pattern: '[a-z_.]*', maxlength: 100 },
        { hint: 'An action (auth.login.failed) or the start of one, ending in a dot (auth.).' },
      ),
      field(
        'Who',
        'actor_id',
        {},
        { tag: 'select', options: [['', 'Anyone'], ...members.map((m): [string, string] => [m.user_id, m.email])] },
      ),
      field('From', 'from', { type: 'date' }),
      field('To', 'to', { type: 'date' }, { hint: 'Including this day.' }),
    ),
    formError(),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', class: 'primary' }, 'Show'),
      h('button', { type: 'reset' }, 'Clear'),
    ),
  );
}

export async function auditLogView(app: App): Promise<View> {
  const me = await app.profile();
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'Audit log'));
  const view = { id: 'audit-log', title: 'Audit log', nav: 'audit', node: root };
  if (!readsAuditLog(me.role)) {
    root.append(h('p', { 'data-audit': 'refused' }, 'Only owners and admins of the organisation can read its audit log.'));
    return view;
  }
  const members = (await api.members()).members;
  const form = filterForm(members);
  const body = h('tbody', { id: 'audit-rows' });
  const empty = h('p', { class: 'hint', hidden: true, 'data-audit': 'empty' }, 'No entries match.');
  const more = h('button', { type: 'button', id: 'audit-more', hidden: true }, 'Load more');
  const listError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  let filter: AuditFilter = {};
  let cursor: string | null = null;

  const load = async (reset: boolean) => {
    const page = await api.auditLog(filter, PAGE, reset ? undefined : (cursor ?? undefined));
    if (reset) body.replaceChildren();
    body.append(...page.events.map(row));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    empty.hidden = body.childElementCount > 0;
    return page.events.length;
  };
  onSubmit(form, async (f) => {
    filter = filterOf(f);
    const n = await load(true);
    announce(n ? `${n}${cursor ? ' or more' : ''} entries` : 'No entries match.');
  });
  form.addEventListener('reset', () => {
    filter = {};
    void load(true).catch((e: unknown) => showListError(e));
  });
  more.addEventListener('click', async () => {
    more.disabled = true;
    listError.hidden = true;
    const before = body.childElementCount;
    try {
      const n = await load(false);
      announce(`${n} older entries loaded.`);
      // Keyboard users continue at the first new entry.
      const first = body.children[before] as HTMLElement | undefined;
      first?.setAttribute('tabindex', '-1');
      first?.focus();
    } catch (e) {
      showListError(e);
    } finally {
      more.disabled = false;
    }
  });
  const showListError = (e: unknown) => {
    listError.textContent = message(e);
    listError.hidden = false;
  };

  root.append(
    h('p', { class: 'hint' }, 'Sign-ins and their failures, passkeys, recovery codes and other account changes, newest first.'),
    form,
    exportRow(() => filter),
    h(
      'table',
      { class: 'table stack', id: 'audit-log' },
      h('caption', { class: 'visually-hidden' }, 'Audit log entries, newest first'),
      h('thead', {}, h('tr', {}, ...['Time', 'Actor', 'Action', 'Target', 'Client'].map((c) => h('th', { scope: 'col' }, c)))),
      body,
    ),
    empty,
    listError,
    h('div', { class: 'row' }, more),
  );
  await load(true);
  return view;
}

/** Export buttons: the whole log under the filter shown, as the API streams it. */
function exportRow(current: () => AuditFilter) {
  const err = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const button = (format: 'csv' | 'json', label: string) => {
    const b = h('button', { type: 'button', id: `audit-export-${format}` }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      err.hidden = true;
      try {
        download(await api.exportAuditLog(current(), format), `audit-log.${format}`);
        announce('Export downloaded.');
      } catch (e) {
        err.textContent = message(e);
        err.hidden = false;
      } finally {
        b.disabled = false;
      }
    });
    return b;
  };
  return h(
    'div',
    { class: 'export' },
    h('div', { class: 'row' }, button('csv', 'Export CSV'), button('json', 'Export JSON')),
    h('p', { class: 'hint' }, 'Exports every entry matching the filter shown.'),
    err,
  );
}
