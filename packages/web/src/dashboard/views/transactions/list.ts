/** The transactions list: server-side search and status filter, cursor paging, CSV export. */
import { api, type Summary } from '../../api.js';
import { announce, chip, download, field, fmtDate, h, message, STATUS_LABEL } from '../../dom.js';
import type { App, View } from '../../main.js';

const PAGE = 25;
/** The API's limit on the search text. */
const MAX_QUERY = 100;
/** Typing pauses this long before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

type Filter = { q: string; status: string };

/** The page's heading with New transaction and Export CSV (the export's refusal is said under it). */
function headRow() {
  const exportBtn = h('button', { type: 'button', id: 'export-csv' }, 'Export CSV');
  const exportErr = h('p', { class: 'form-error', role: 'alert', hidden: true });
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
  const head = h(
    'div',
    { class: 'head-row' },
    h('h1', { tabindex: -1 }, 'Transactions'),
    h(
      'div',
      { class: 'row' },
      h('a', { href: '/app/transactions/new', 'data-link': true, class: 'button primary', id: 'new-tx' }, 'New transaction'),
      exportBtn,
    ),
  );
  return [head, exportErr];
}

/** The search box and status filter, filled in from the page's URL (?q=…&status=…). */
function filterForm(fromUrl: URLSearchParams) {
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
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter transactions' }, search, status);
  return { form, searchInput, statusSelect };
}

/** One transaction: reference (a link to it), signer, status and created. */
const txRow = (s: Summary) =>
  h(
    'tr',
    { 'data-id': s.id },
    h('th', { scope: 'row' }, h('a', { href: `/app/transactions/${s.id}`, 'data-link': true }, s.reference || `#${s.id}`)),
    h('td', { 'data-label': 'Signer' }, h('span', {}, s.signer_name), h('br', {}), h('span', { class: 'hint' }, s.signer_email)),
    h('td', { 'data-label': 'Status' }, chip(s.status)),
    h('td', { 'data-label': 'Created' }, fmtDate(s.created_at)),
  );

/** The transactions' table around its body. */
const txTable = (tbody: HTMLElement) =>
  h(
    'table',
    { class: 'table stack', id: 'tx-table' },
    h('caption', { class: 'visually-hidden' }, 'Your transactions, newest first'),
    h('thead', {}, h('tr', {}, ...['Reference', 'Signer', 'Status', 'Created'].map((c) => h('th', { scope: 'col' }, c)))),
    tbody,
  );

/** What the line under the table says about `n` rows fetched so far. */
function infoText(n: number, done: boolean, filtering: boolean) {
  if (!n && done)
    return filtering ? 'No transaction matches.' : 'No transactions yet. Create one to send a document for signing.';
  return `Showing ${n}${done ? '' : '+'} ${filtering ? 'matching ' : ''}transaction${n === 1 && done ? '' : 's'}.`;
}

/**
 * The list of the current filter, fetched page by page: its nodes and `load`, which fetches the next page
 * (the first when `fresh`), dropping answers to an older filter. The server searches and filters; the page
 * only asks for the next page of what it answered.
 */
function pagedList(filter: () => Filter) {
  const tbody = h('tbody', {});
  const table = txTable(tbody);
  const info = h('p', { class: 'hint', role: 'status', id: 'list-info' });
  const more = h('button', { type: 'button', id: 'load-more', hidden: true }, 'Load more');
  const listErr = h('p', { class: 'form-error', role: 'alert', hidden: true });
  // State: the rows of the current filter fetched so far (newest first) and the API's next cursor.
  let rows: Summary[] = [];
  let cursor: string | null = null;
  let done = false;
  let gen = 0;
  const render = () => {
    tbody.replaceChildren(...rows.map(txRow));
    const f = filter();
    info.textContent = infoText(rows.length, done, !!f.q || !!f.status);
    more.hidden = done;
  };
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
  more.addEventListener('click', () => void load(false));
  return { nodes: [table, info, listErr, more], load };
}

export async function listView(_app: App): Promise<View> {
  const root = h('section', {});
  root.append(...headRow());
  // The filter lives in the page's URL (?q=…&status=…), so a reload or Back shows the same list.
  const { form: filters, searchInput, statusSelect } = filterForm(new URLSearchParams(location.search));
  root.append(filters);
  const filter = (): Filter => ({ q: searchInput.value.trim(), status: statusSelect.value });
  const list = pagedList(filter);
  root.append(...list.nodes);

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
    void list.load(true);
  };

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
  const applyNow = () => {
    clearTimeout(timer);
    typed = false;
    apply(true);
  };
  statusSelect.addEventListener('change', applyNow);
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    applyNow();
  });

  await list.load(true);
  return { id: 'transactions', title: 'Transactions', nav: 'transactions', node: root };
}
