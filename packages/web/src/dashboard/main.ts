import '../shared/a11y.css';
import './dashboard.css';
import { api, dataMode, session, type Profile } from './api.js';
import { announce, h, message } from './dom.js';
import { loginView, resetView, signupView } from './views/auth.js';
import { accountView } from './views/account.js';
import { auditLogView, readsAuditLog } from './views/audit-log.js';
import { securityView } from './views/security.js';
import { billingView } from './views/billing.js';
import { developerView } from './views/developer.js';
import { joinView, membersView } from './views/members.js';
import { webhooksView } from './views/webhooks.js';
import { bulkJobView, bulkListView } from './views/bulk.js';
import { createView } from './views/transactions/create.js';
import { detailView } from './views/transactions/detail.js';
import { listView } from './views/transactions/list.js';
import { templateEditorView } from './views/templates/editor.js';
import { templatesView } from './views/templates/list.js';
import { sendFromTemplateView } from './views/templates/send.js';

export type View = { id: string; title: string; nav?: string; node: HTMLElement };
export type App = {
  go(path: string, opts?: { replace?: boolean; notice?: string }): void;
  profile(): Promise<Profile>;
  signedIn(token: string): Promise<void>;
};

const main = document.getElementById('main')!;
let profile: Profile | null = null;
let pendingNotice: string | undefined;

const PUBLIC = new Set(['/app/login', '/app/signup', '/app/reset', '/app/join']);

const app: App = {
  go(path, opts = {}) {
    pendingNotice = opts.notice;
    if (opts.replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    void route();
  },
  async profile() {
    if (!profile) profile = await api.me();
    return profile;
  },
  async signedIn(token) {
    session.set(token);
    profile = null;
    await app.profile().catch(() => null);
    app.go('/app/transactions', { replace: true });
  },
};

session.onUnauthorized(() => {
  profile = null;
  if (!PUBLIC.has(location.pathname)) app.go('/app/login', { replace: true, notice: 'Your session has ended. Sign in again.' });
});

async function resolveView(path: string): Promise<View> {
  if (path === '/app/login') return loginView(app);
  if (path === '/app/signup') return signupView(app);
  if (path === '/app/reset') return resetView(app);
  if (path === '/app/join') return joinView(app);
  if (path === '/app' || path === '/app/' || path === '/app/transactions') return listView(app);
  if (path === '/app/transactions/new') return createView(app);
  const m = /^\/app\/transactions\/(\d{1,15})$/.exec(path);
  if (m) return detailView(app, Number(m[1]));
  if (path === '/app/bulk') return bulkListView(app);
  const bm = /^\/app\/bulk\/(bj_[A-Za-z0-9]{1,40})$/.exec(path);
  if (bm) return bulkJobView(app, bm[1]!);
  if (path === '/app/templates') return templatesView(app);
  const tm = /^\/app\/templates\/([A-Za-z0-9_-]{1,64})(\/send)?$/.exec(path);
  if (tm) return tm[2] ? sendFromTemplateView(app, tm[1]!) : templateEditorView(app, tm[1]!);
  if (path === '/app/developer') return developerView(app);
  if (path === '/app/members') return membersView(app);
  if (path === '/app/webhooks') return webhooksView(app);
  if (path === '/app/billing') return billingView(app);
  if (path === '/app/account') return accountView(app);
  if (path === '/app/security') return securityView(app);
  if (path === '/app/audit-log') return auditLogView(app);
  return {
    id: 'not-found',
    title: 'Not found',
    node: h(
      'section',
      {},
      h('h1', { tabindex: -1 }, 'Page not found'),
      h('p', {}, h('a', { href: '/app/transactions', 'data-link': true }, 'Go to your transactions')),
    ),
  };
}

async function route() {
  const path = location.pathname.replace(/\/+$/, '') || '/app';
  const signed = !!session.token;
  if (!signed && !PUBLIC.has(path)) return app.go('/app/login', { replace: true, notice: pendingNotice });
  if (signed && PUBLIC.has(path)) return app.go('/app/transactions', { replace: true });
  document.getElementById('nav')!.hidden = !signed;
  document.getElementById('who')!.hidden = !signed;
  if (signed)
    void app
      .profile()
      .then((p) => {
        document.getElementById('who-org')!.textContent = p.org_name;
        // The audit log is for owners and admins: the others do not see its entry.
        document.getElementById('nav-audit')!.hidden = !readsAuditLog(p.role);
      })
      .catch(() => undefined);

  main.setAttribute('aria-busy', 'true');
  let view: View;
  try {
    view = await resolveView(path);
  } catch (err) {
    if (!session.token) return; // the 401 handler already moved to the login page
    view = {
      id: 'error',
      title: 'Error',
      node: h(
        'section',
        {},
        h('h1', { tabindex: -1 }, 'This page could not be loaded'),
        h('p', { class: 'form-error', role: 'alert' }, message(err)),
      ),
    };
  }
  main.removeAttribute('aria-busy');
  showMode(signed);
  main.replaceChildren(view.node);
  const notice = pendingNotice;
  pendingNotice = undefined;
  if (notice) view.node.prepend(h('p', { class: 'notice', role: 'status' }, notice));
  document.title = `${view.title} · Signet`;
  document.body.dataset.page = view.id;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    if (a.dataset.nav === view.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  // Screen readers hear the new page: focus its heading.
  view.node.querySelector<HTMLElement>('h1')?.focus();
  announce(view.title);
}

/** The test/live switch and its banner, as the calls are made (a detail view may have switched it). */
const modeSwitch = document.getElementById('mode-test') as HTMLInputElement;
function showMode(signed: boolean) {
  const test = signed && dataMode.test;
  modeSwitch.checked = test;
  document.getElementById('test-banner')!.hidden = !test;
  document.body.dataset.mode = test ? 'test' : 'live';
}
modeSwitch.addEventListener('change', () => {
  dataMode.set(modeSwitch.checked);
  announce(modeSwitch.checked ? 'Showing test data' : 'Showing live data');
  // A transaction's page belongs to one mode: the switch goes back to the list.
  if (/^\/app\/transactions\/\d+$/.test(location.pathname)) app.go('/app/transactions');
  else void route();
});

// Links inside the app navigate without a reload.
document.addEventListener('click', (e) => {
  const a = (e.target as HTMLElement).closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  app.go(a.getAttribute('href')!);
});
window.addEventListener('popstate', () => void route());
document.getElementById('logout')!.addEventListener('click', () => {
  session.clear();
  profile = null;
  app.go('/app/login', { replace: true, notice: 'You are signed out.' });
});

void route();
