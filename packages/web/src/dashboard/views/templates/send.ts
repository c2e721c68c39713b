/**
 * A transaction from a template (issue 33 item 3): a signer for each role (name, e-mail, and the face
 * photo a face_match role needs), values the sender prefills, and a preview of the document with
 * every field at its place showing its role or its prefilled value. Sent as one JSON request with an
 * Idempotency-Key (a retry after a lost answer creates nothing twice).
 */
import './templates.css';
import { field, formError, h, onSubmit, value } from '../../dom.js';
import type { App, View } from '../../main.js';
import { boxStyle, openPdf, renderPages, type RenderedPage } from '../../../shared/pdf.js';
import { documentOf } from './editor.js';
import { blankPage } from './geometry.js';
import { templateStrings as t } from './strings.js';
import { templatesApi, type Template, type TemplateField } from './templates-api.js';

const PREFILLABLE = new Set(['text', 'dropdown', 'checkbox']);

export async function sendFromTemplateView(app: App, id: string): Promise<View> {
  const tpl = await templatesApi.get(id);
  const pagesEl = h('div', { class: 'pdf-pages tpl-pages', id: 'send-preview' });
  const prefill = tpl.fields.filter((f) => PREFILLABLE.has(f.type) && f.id);
  const form = h(
    'form',
    { novalidate: true, id: 'template-send', 'aria-labelledby': 'h-send' },
    ...tpl.roles.map((r, i) => roleFieldset(r.name, i, r.verification !== 'liveness_only')),
    prefill.length ? h('fieldset', { id: 'prefill' }, h('legend', {}, t.prefillHeading), ...prefill.map(prefillControl)) : null,
    formError(),
    h('button', { type: 'submit', class: 'primary' }, t.send),
  );
  let idem = crypto.randomUUID();
  let boxes: (() => void) | undefined;
  form.addEventListener('input', () => {
    idem = crypto.randomUUID();
    boxes?.();
  });
  onSubmit(form, async () => {
    const signers = await Promise.all(
      tpl.roles.map(async (r, i) => {
        const photo = form.querySelector<HTMLInputElement>(`#send-photo-${i}`)?.files?.[0];
        return {
          role: r.name,
          name: value(form, `signer_${i}_name`).trim(),
          email: value(form, `signer_${i}_email`).trim(),
          ...(photo ? { photo: await base64(photo) } : {}),
        };
      }),
    );
    const created = await templatesApi.send(id, { signers, values: prefilled(form, prefill) }, idem);
    app.go(`/app/transactions/${created.id}`, { notice: t.sent });
  });
  const node = h(
    'section',
    { class: 'tpl-send' },
    h('p', {}, h('a', { href: `/app/templates/${encodeURIComponent(id)}`, 'data-link': true }, t.backToTemplate)),
    h('h1', { tabindex: -1, id: 'h-send' }, t.sendTitle(tpl.name)),
    h('div', { class: 'tpl-send-layout' }, form, h('div', {}, h('h2', {}, t.preview), pagesEl)),
  );
  void preview(tpl, pagesEl).then((pages) => {
    boxes = () => drawPreview(pages, tpl.fields, form);
    boxes();
  });
  return { id: 'template-send', title: t.sendTitle(tpl.name), nav: 'templates', node };
}

function roleFieldset(role: string, i: number, photo: boolean) {
  return h(
    'fieldset',
    { 'data-role': role },
    h('legend', {}, t.signerFor(role)),
    field(t.signerName, `signer_${i}_name`, { required: true, maxlength: 200, autocomplete: 'off' }),
    field(t.signerEmail, `signer_${i}_email`, { type: 'email', required: true, autocomplete: 'off' }),
    photo
      ? h(
          'div',
          { class: 'field' },
          h('label', { for: `send-photo-${i}` }, t.signerPhoto),
          h('input', { type: 'file', id: `send-photo-${i}`, accept: 'image/jpeg,image/png' }),
        )
      : null,
  );
}

function prefillControl(f: TemplateField) {
  const label = `${f.label || f.id} (${f.role})`;
  const name = `prefill_${f.id}`;
  if (f.type === 'checkbox')
    return h('div', { class: 'check' }, h('input', { type: 'checkbox', id: name, name }), h('label', { for: name }, label));
  if (f.type === 'dropdown')
    return field(
      label,
      name,
      {},
      { tag: 'select', options: [['', '—'], ...(f.options ?? []).map((o): [string, string] => [o, o])] },
    );
  return field(label, name, { maxlength: f.max_length ?? 1000, autocomplete: 'off' });
}

function prefilled(form: HTMLFormElement, fields: TemplateField[]): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const f of fields) {
    const el = form.elements.namedItem(`prefill_${f.id}`) as HTMLInputElement | HTMLSelectElement | null;
    if (!el) continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') {
      if (el.checked) values[f.id!] = true;
    } else if (el.value.trim()) values[f.id!] = el.value.trim();
  }
  return values;
}

async function preview(tpl: Template, into: HTMLElement): Promise<RenderedPage[]> {
  await new Promise((r) => requestAnimationFrame(r));
  try {
    const doc = await openPdf(await documentOf(tpl.id));
    const { pages, drawn } = await renderPages(doc, into, into.clientWidth || 500, t.page);
    await drawn;
    return pages;
  } catch {
    return (tpl.pages ?? []).map((p, i) => {
      const element = blankPage(i + 1, p);
      into.append(element);
      return { number: i + 1, width: p.width, height: p.height, element };
    });
  } finally {
    into.dataset.rendered = 'true';
  }
}

/** Each field at its place: its prefilled value, else its role. */
function drawPreview(pages: RenderedPage[], fields: TemplateField[], form: HTMLFormElement) {
  for (const old of document.querySelectorAll('#send-preview .tfld')) old.remove();
  for (const f of fields) {
    const page = f.page ? pages[f.page - 1] : undefined;
    if (!page || f.anchor || f.x === undefined || f.y === undefined || !f.width || !f.height) continue;
    const el = h('div', { class: `tfld tfld-preview tfld-${f.type}`, 'data-field': f.id ?? '', 'aria-hidden': 'true' });
    Object.assign(el.style, boxStyle(page, { x: f.x, y: f.y, width: f.width, height: f.height }));
    const input = form.elements.namedItem(`prefill_${f.id}`) as HTMLInputElement | null;
    const v = input ? (input.type === 'checkbox' ? (input.checked ? '✓' : '') : input.value) : '';
    el.textContent = v || `${t.kinds[f.type] ?? f.type} · ${f.role}`;
    el.classList.toggle('prefilled', Boolean(v));
    page.element.append(el);
  }
}

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).slice(String(r.result).indexOf(',') + 1));
    r.onerror = () => reject(new Error(t.photoUnreadable));
    r.readAsDataURL(file);
  });
}
