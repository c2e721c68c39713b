/**
 * The template editor (issue 33 item 3): the template's PDF rendered with pdf.js, a palette of field
 * kinds to drag onto a page (or to choose, which adds the field to the page in view), each field's
 * box moved and resized in place, its role and rules set beside it; Save sends the whole list (PATCH),
 * which the service checks again (off the page, overlapping another role's field: its refusal shown).
 */
import './templates.css';
import { confirmDialog, formError, h, showError } from '../../dom.js';
import type { App, View } from '../../main.js';
import { openPdf, renderPages, type RenderedPage } from '../../../shared/pdf.js';
import { fieldBox } from './field-box.js';
import { fieldProps } from './field-props.js';
import { blankPage, clamp, DEFAULT_SIZE } from './geometry.js';
import { templateStrings as t } from './strings.js';
import { templatesApi, type Template, type TemplateField } from './templates-api.js';

/** A just-uploaded template's PDF, so the editor need not download it again. */
const uploaded = new Map<string, ArrayBuffer>();
export const keepDocument = (id: string, bytes: ArrayBuffer) => uploaded.set(id, bytes);
/** The template's PDF: the one just uploaded, else the service's. */
export const documentOf = async (id: string) => (uploaded.get(id) ?? (await templatesApi.document(id))).slice(0);

type State = { tpl: Template; fields: TemplateField[]; selected?: TemplateField; pages: RenderedPage[] };

export async function templateEditorView(app: App, id: string): Promise<View> {
  const tpl = await templatesApi.get(id);
  const s: State = { tpl, fields: tpl.fields.map((f) => ({ ...f })), pages: [] };
  const pagesEl = h('div', { class: 'pdf-pages tpl-pages', id: 'tpl-pages' });
  const side = h('div', { class: 'tpl-side' });
  const status = h('p', { class: 'hint', role: 'status', id: 'tpl-status' });
  const error = formError();
  const redraw = () => drawFields(s, pagesEl, side);
  const save = h('button', { type: 'button', class: 'primary', id: 'tpl-save' }, t.save);
  const del = h('button', { type: 'button', class: 'danger', id: 'tpl-delete' }, t.deleteTemplate);
  const aside = h('div', { class: 'tpl-aside' }, side, error, status, h('div', { class: 'row' }, save, del));
  save.onclick = async () => {
    save.disabled = true;
    error.hidden = true;
    status.textContent = '';
    try {
      const saved = await templatesApi.update(id, { fields: s.fields });
      s.fields = saved.fields.map((f) => ({ ...f }));
      s.selected = undefined;
      redraw();
      status.textContent = t.saved;
    } catch (err) {
      showError(aside, err);
      // The refusal names the field (fields[2] (text_1): …): select it.
      const named = /\(([^)]+)\)/.exec(error.textContent ?? '')?.[1];
      const culprit = s.fields.find((f) => f.id === named);
      if (culprit) {
        s.selected = culprit;
        redraw();
      }
    } finally {
      save.disabled = false;
    }
  };
  del.onclick = async () => {
    if (!(await confirmDialog(t.confirmDelete, t.confirmDeleteText, t.deleteTemplate))) return;
    error.hidden = true;
    try {
      await templatesApi.remove(id);
    } catch (err) {
      return showError(aside, err);
    }
    app.go('/app/templates', { notice: t.deleted });
  };
  const node = h(
    'section',
    { class: 'tpl-editor' },
    h(
      'p',
      { class: 'row' },
      h('a', { href: '/app/templates', 'data-link': true }, t.back),
      h('a', { href: `/app/templates/${encodeURIComponent(id)}/send`, 'data-link': true, id: 'tpl-send' }, t.sendLink),
    ),
    h('h1', { tabindex: -1 }, t.editorTitle(tpl.name)),
    h('div', { class: 'tpl-layout' }, palette(s, pagesEl, redraw), pagesEl, aside),
  );
  void showPages(s, pagesEl, status).then(redraw);
  redraw();
  return { id: 'template-editor', title: t.editorTitle(tpl.name), nav: 'templates', node };
}

async function showPages(s: State, into: HTMLElement, status: HTMLElement) {
  // The element is in the document once the view is shown: wait a frame for its width.
  await new Promise((r) => requestAnimationFrame(r));
  try {
    const doc = await openPdf(await documentOf(s.tpl.id));
    const { pages, drawn } = await renderPages(doc, into, into.clientWidth || 600, t.page);
    s.pages = pages;
    await drawn;
  } catch {
    status.textContent = t.noPreview;
    s.pages = (s.tpl.pages ?? []).map((p, i) => {
      const element = blankPage(i + 1, p);
      into.append(element);
      return { number: i + 1, width: p.width, height: p.height, element };
    });
  }
  into.dataset.rendered = 'true';
}

/** Every field's box on its page, and the selected one's panel. */
function drawFields(s: State, pagesEl: HTMLElement, side: HTMLElement) {
  for (const old of pagesEl.querySelectorAll('.tfld')) old.remove();
  const draws = new Map<TemplateField, () => void>();
  const panel = () =>
    side.replaceChildren(
      fieldProps(s.selected, s.tpl.roles, {
        changed: () => s.selected && draws.get(s.selected)?.(),
        remove: () => s.selected && remove(s.selected),
      }),
    );
  const moved = () => {
    const place = side.querySelector('#tpl-place');
    if (place && s.selected && !s.selected.anchor) place.textContent = t.place(s.selected);
  };
  const remove = (f: TemplateField) => {
    s.fields = s.fields.filter((g) => g !== f);
    s.selected = undefined;
    drawFields(s, pagesEl, side);
  };
  for (const f of s.fields) {
    const page = f.page ? s.pages[f.page - 1] : undefined;
    if (!page || f.anchor) continue;
    const { el, draw } = fieldBox(f, page, {
      select: () => {
        if (s.selected === f) return;
        s.selected = f;
        for (const b of pagesEl.querySelectorAll('.tfld[data-selected]')) b.removeAttribute('data-selected');
        el.dataset.selected = 'true';
        panel();
      },
      changed: moved,
      remove: () => remove(f),
    });
    draws.set(f, draw);
    if (s.selected === f) el.dataset.selected = 'true';
    page.element.append(el);
  }
  // Fields placed by anchor text have no box until a transaction's document is read: listed to edit.
  const anchored = pagesEl.parentElement?.querySelector('#tpl-anchored');
  anchored?.replaceChildren(
    ...s.fields
      .filter((f) => f.anchor)
      .map((f) =>
        h(
          'li',
          {},
          h('button', { type: 'button', onclick: () => ((s.selected = f), panel()) }, `${t.kinds[f.type] ?? f.type} · ${f.role}`),
        ),
      ),
  );
  panel();
}

/** The palette: drag a kind onto a page, or choose it to add it to the page in view. */
function palette(s: State, pagesEl: HTMLElement, redraw: () => void) {
  const add = (type: string, page: RenderedPage, at?: { x: number; y: number }) => {
    const [width, height] = DEFAULT_SIZE[type] ?? [120, 16];
    const x = at ? at.x : (page.width - width) / 2;
    const y = at ? at.y - height : (page.height - height) / 2;
    const n = s.fields.filter((f) => f.type === type).length + 1;
    let fid = `${type}_${n}`;
    for (let i = n; s.fields.some((f) => f.id === fid); i++) fid = `${type}_${i + 1}`;
    const f: TemplateField = {
      id: fid,
      type,
      role: s.tpl.roles[0]?.name ?? '',
      page: page.number,
      required: true,
      ...clamp({ x, y, width, height }, page),
    };
    if (type === 'dropdown') f.options = ['Yes', 'No'];
    s.fields.push(f);
    s.selected = f;
    redraw();
    pagesEl.querySelector<HTMLElement>(`.tfld[data-field="${fid}"]`)?.focus();
  };
  const inView = () => s.pages.find((p) => p.element.getBoundingClientRect().bottom > 80) ?? s.pages[0];
  const items = Object.entries(t.kinds).map(([type, label]) => {
    const b = h('button', { type: 'button', class: 'palette-item', 'data-kind': type }, label);
    let dragged = false;
    b.onclick = () => {
      if (dragged) return void (dragged = false);
      const p = inView();
      if (p) add(type, p);
    };
    b.onpointerdown = (e) => {
      const start = { x: e.clientX, y: e.clientY };
      dragged = false;
      b.setPointerCapture(e.pointerId);
      b.onpointermove = (m) => (dragged ||= Math.hypot(m.clientX - start.x, m.clientY - start.y) > 4);
      b.onpointerup = (u) => {
        b.onpointermove = b.onpointerup = null;
        if (!dragged) return;
        const page = s.pages.find((p) => inside(p.element.getBoundingClientRect(), u.clientX, u.clientY));
        if (!page) return;
        const r = page.element.getBoundingClientRect();
        const k = page.width / r.width;
        add(type, page, { x: (u.clientX - r.left) * k, y: page.height - (u.clientY - r.top) * k });
      };
    };
    return b;
  });
  return h(
    'div',
    { class: 'tpl-palette', role: 'group', 'aria-labelledby': 'tpl-palette-h' },
    h('h2', { id: 'tpl-palette-h' }, t.palette),
    h('p', { class: 'hint' }, t.paletteHint),
    ...items,
    h('ul', { id: 'tpl-anchored', class: 'tpl-anchored', 'aria-label': t.anchoredList }),
  );
}

const inside = (r: DOMRect, x: number, y: number) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
