/**
 * Bulk send (issue 33 item 4): send a template to many signers from a CSV or JSON file, and follow a
 * job's progress (rows created, failed with their reason, not sent because the quota and credits ran
 * out). The session is a caller like an API key on these routes (no CSRF), in the data mode of the switch.
 */
import { ApiError, dataMode, session } from '../api.js';
import { announce, fmtDate, formError, h, onSubmit } from '../dom.js';
import type { App, View } from '../main.js';

type RowResult = { row: number; status: 'pending' | 'created' | 'failed' | 'not_sent'; reason?: string; transaction_id?: number };
type BulkJob = {
  id: string;
  template_id: string;
  state: 'running' | 'completed';
  rows: number;
  pending: number;
  created: number;
  failed: number;
  not_sent: number;
  created_at: string;
  completed_at: string | null;
  results?: RowResult[];
};

async function call<T>(method: string, url: string, body?: { data: BodyInit; type: string }): Promise<T> {
  const headers: Record<string, string> = {
    ...(body ? { 'Content-Type': body.type } : {}),
    ...(session.token ? { Authorization: `Bearer ${session.token}` } : {}),
    ...(dataMode.test ? { 'Signet-Mode': 'test' } : {}),
  };
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body?.data, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The network is unavailable. Check your connection and try again.');
  }
  const json = (await res.json().catch(() => ({}))) as T & { detail?: string };
  if (!res.ok) throw new ApiError(res.status, json.detail ?? `request failed (${res.status})`);
  return json;
}

const counts = (j: BulkJob) =>
  `${j.created} created · ${j.failed} failed · ${j.not_sent} not sent${j.pending ? ` · ${j.pending} to go` : ''} (of ${j.rows})`;

/** /app/bulk: the upload form and the jobs, newest first. */
export async function bulkListView(app: App): Promise<View> {
  const [templates, jobs] = await Promise.all([
    call<{ items: { id: string; name: string }[] }>('GET', '/api/templates?limit=200'),
    call<BulkJob[]>('GET', '/api/bulk?limit=50'),
  ]);
  const select = h(
    'select',
    { id: 'bulk-template', name: 'template', required: true },
    ...templates.items.map((t) => h('option', { value: t.id }, t.name)),
  );
  const file = h('input', {
    type: 'file',
    id: 'bulk-file',
    name: 'file',
    accept: '.csv,text/csv,.json,application/json',
    required: true,
  });
  const form = h(
    'form',
    { novalidate: true, id: 'bulk-create', class: 'card', 'aria-labelledby': 'h-bulk-new' },
    h('h2', { id: 'h-bulk-new' }, 'Send a template to many signers'),
    h(
      'p',
      { class: 'hint' },
      'A CSV with a header: <role>_name and <role>_email for each role of the template (and <role>_photo, a base64 JPEG or PNG, ' +
        'for a role matched against a face photo), value_<field id> for a prefilled value; or the same rows as JSON. At most 1,000 rows.',
    ),
    h('div', { class: 'field' }, h('label', { for: 'bulk-template' }, 'Template'), select),
    h('div', { class: 'field' }, h('label', { for: 'bulk-file' }, 'Rows (CSV or JSON)'), file),
    formError(),
    h('button', { type: 'submit', class: 'primary', disabled: !templates.items.length }, 'Send'),
  );
  onSubmit(form, async () => {
    const f = file.files?.[0];
    if (!f) throw new ApiError(400, 'file: choose a CSV or JSON file');
    const type = /\.json$/i.test(f.name) || f.type === 'application/json' ? 'application/json' : 'text/csv';
    const job = await call<BulkJob>('POST', `/api/templates/${encodeURIComponent(select.value)}/bulk`, {
      data: await f.text(),
      type,
    });
    app.go(`/app/bulk/${job.id}`, { notice: `Bulk job accepted: ${job.rows} rows.` });
  });
  const list = jobs.length
    ? h(
        'ul',
        { id: 'bulk-jobs', class: 'template-list' },
        ...jobs.map((j) =>
          h(
            'li',
            { 'data-job': j.id },
            h('a', { href: `/app/bulk/${j.id}`, 'data-link': true }, fmtDate(j.created_at)),
            h('span', { class: 'muted' }, ` · ${j.state} · ${counts(j)}`),
          ),
        ),
      )
    : h('p', { class: 'muted', id: 'bulk-jobs' }, 'No bulk jobs yet.');
  const node = h('section', {}, h('h1', { tabindex: -1 }, 'Bulk send'), form, h('h2', {}, 'Jobs'), list);
  return { id: 'bulk', title: 'Bulk send', nav: 'bulk', node };
}

/** /app/bulk/<id>: the progress, refreshed every 2 s while the job runs, and each row that was not created. */
export async function bulkJobView(_app: App, id: string): Promise<View> {
  const load = () => call<BulkJob>('GET', `/api/bulk/${encodeURIComponent(id)}`);
  const bar = h('progress', { id: 'bulk-progress', max: 1, value: 0, 'aria-label': 'Rows done' });
  const summary = h('p', { id: 'bulk-counts', role: 'status' });
  const problems = h('tbody', {});
  const table = h(
    'table',
    { id: 'bulk-rows' },
    h('caption', {}, 'Rows not created'),
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 'Row'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Reason')),
    ),
    problems,
  );
  const show = (j: BulkJob) => {
    bar.max = Math.max(j.rows, 1);
    bar.value = j.rows - j.pending;
    summary.textContent = `${j.state === 'completed' ? 'Completed' : 'Running'}: ${counts(j)}`;
    const bad = (j.results ?? []).filter((r) => r.status === 'failed' || r.status === 'not_sent');
    problems.replaceChildren(
      ...bad.map((r) =>
        h(
          'tr',
          {},
          h('td', {}, String(r.row + 1)),
          h('td', {}, r.status === 'failed' ? 'failed' : 'not sent'),
          h('td', {}, r.reason ?? ''),
        ),
      ),
    );
    table.hidden = !bad.length;
  };
  const first = await load();
  show(first);
  const node = h(
    'section',
    { 'data-job': id },
    h('h1', { tabindex: -1 }, 'Bulk job'),
    h('p', { class: 'muted' }, `Started ${fmtDate(first.created_at)}`),
    bar,
    summary,
    table,
    h('p', {}, h('a', { href: '/app/bulk', 'data-link': true }, 'All bulk jobs')),
  );
  if (first.state === 'running') {
    const timer = setInterval(() => {
      if (!node.isConnected) return clearInterval(timer);
      void load().then(
        (j) => {
          show(j);
          if (j.state === 'completed') {
            clearInterval(timer);
            announce(`Bulk job completed: ${counts(j)}`);
          }
        },
        () => undefined,
      );
    }, 2000);
  }
  return { id: 'bulk-job', title: 'Bulk job', nav: 'bulk', node };
}
