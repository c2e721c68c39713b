/**
 * The field step (issue 33), before the consent: the document rendered with pdf.js, the signer's own
 * fields over it at their boxes (PDF points → percentages of the page, so they stay put at any
 * width), and the form where they are filled. Saving sends every value at once (PUT …/fields); the
 * service checks each again and a refusal is shown under its field. Other signers' fields are not
 * shown: the service gives each signer only their own.
 */
import './fields.css';
import { boxStyle, openPdf, renderPages, type RenderedPage } from '../shared/pdf.js';
import { ApiError, type Summary } from './api.js';
import { confirmDecline, showConsent } from './consent.js';
import { fieldsForm, type FieldsForm, type SignerField } from './fields-form.js';
import { fieldStrings as t } from './fields-strings.js';
import { $, client, fatal, gone, show } from './page.js';

/** The consent step, after the fields when the signer has any. */
export async function showFieldsOrConsent(s: Summary): Promise<void> {
  let fields: SignerField[];
  let submitted = false;
  let complete = false;
  try {
    const f = await client.fields();
    ({ fields, complete } = f);
    submitted = Boolean(f.submitted_at);
  } catch (err) {
    if (gone(err)) return;
    fatal((err as Error).message, () => void showFieldsOrConsent(s));
    return;
  }
  if (fields.length === 0) return showConsent(s);
  // Filled in already (a reload after saving): the consent, with the way back to the fields.
  if (submitted && complete) return consentAfterFields(s, fields);
  showFields(s, fields);
}

/** The consent step, with a button back to the fields (a new submission replaces the last one). */
function consentAfterFields(s: Summary, fields: SignerField[]) {
  showConsent(s);
  const consent = document.querySelector<HTMLElement>('section[data-screen="consent"]')!;
  let back = consent.querySelector<HTMLButtonElement>('#c-fields');
  if (!back) {
    back = Object.assign(document.createElement('button'), { type: 'button', id: 'c-fields', className: 'link-like' });
    const line = Object.assign(document.createElement('p'), { className: 'small' });
    line.append(back);
    consent.querySelector('h1')!.after(line);
  }
  back.textContent = t.change;
  back.onclick = () => showFields(s, fields);
}

function showFields(s: Summary, fields: SignerField[]) {
  const section = document.querySelector<HTMLElement>('section[data-screen="fields"]')!;
  const h = Object.assign(document.createElement('h1'), { id: 'h-fields', tabIndex: -1, textContent: t.heading });
  const intro = Object.assign(document.createElement('p'), { textContent: t.intro });
  const pages = Object.assign(document.createElement('div'), { className: 'pdf-pages', id: 'f-pages' });
  const docState = Object.assign(document.createElement('p'), { className: 'small', textContent: t.loadingDocument });
  docState.setAttribute('role', 'status');
  let overlays: (() => void) | undefined;
  const form = fieldsForm(fields, () => overlays?.());
  const general = Object.assign(document.createElement('p'), { className: 'error', id: 'f-error', hidden: true });
  general.setAttribute('role', 'alert');
  const submit = Object.assign(document.createElement('button'), { type: 'submit', className: 'primary', id: 'f-submit' });
  submit.textContent = t.submit;
  const decline = Object.assign(document.createElement('button'), { type: 'button', textContent: t.decline });
  decline.onclick = () => confirmDecline(() => showFields(s, fields));
  const declineLine = Object.assign(document.createElement('p'), { className: 'small' });
  declineLine.append(`${t.declinePrompt} `, decline);
  form.element.append(general, submit, declineLine);
  form.element.onsubmit = (e) => {
    e.preventDefault();
    void save(s, form, submit, general);
  };
  const layout = Object.assign(document.createElement('div'), { className: 'fields-layout' });
  const docCol = document.createElement('div');
  docCol.append(docState, pages);
  layout.append(docCol, form.element);
  section.replaceChildren(h, intro, layout);
  show('fields');
  void loadDocument(pages, docState, fields, form).then((redraw) => (overlays = redraw));
}

async function save(s: Summary, form: FieldsForm, submit: HTMLButtonElement, general: HTMLElement) {
  general.hidden = true;
  if (!form.checkRequired()) return;
  submit.disabled = true;
  submit.textContent = t.saving;
  let saved: SignerField[];
  try {
    saved = (await client.submitFields(form.body())).fields;
  } catch (err) {
    submit.disabled = false;
    submit.textContent = t.submit;
    if (gone(err)) return;
    const detail = err instanceof ApiError ? err.detail : (err as Error).message;
    if (!form.showError(detail)) {
      general.textContent = detail;
      general.hidden = false;
    }
    $('status').textContent = t.fix;
    return;
  }
  consentAfterFields(s, saved);
}

/** Renders the document and the fields' boxes; answers a function that redraws what the boxes show. */
async function loadDocument(
  into: HTMLElement,
  state: HTMLElement,
  fields: SignerField[],
  form: FieldsForm,
): Promise<(() => void) | undefined> {
  try {
    const doc = await openPdf(await client.document());
    const { pages, drawn } = await renderPages(doc, into, into.clientWidth, t.page);
    const redraw = placeFields(pages, fields, form);
    await drawn;
    state.hidden = true;
    into.dataset.rendered = 'true';
    return redraw;
  } catch {
    state.textContent = t.documentFailed;
    return undefined;
  }
}

function placeFields(pages: RenderedPage[], fields: SignerField[], form: FieldsForm): () => void {
  const boxes: { f: SignerField; el: HTMLElement }[] = [];
  for (const f of fields) {
    for (const place of f.places) {
      const page = pages[place.page - 1];
      if (!page) continue;
      const el = document.createElement('div');
      el.className = `fld fld-${f.type}`;
      el.dataset.field = f.id;
      el.title = f.label || t.kinds[f.type] || f.type;
      // The form is the accessible way in; the box is a shortcut for a pointer.
      el.setAttribute('aria-hidden', 'true');
      Object.assign(el.style, boxStyle(page, place));
      const editable = !f.readonly && !['date_signed', 'full_name', 'email'].includes(f.type);
      if (editable) el.onclick = () => form.focus(['signature', 'initials'].includes(f.type) ? f.type : `values.${f.id}`);
      el.classList.toggle('fld-fixed', !editable);
      page.element.append(el);
      boxes.push({ f, el });
    }
  }
  const redraw = () => {
    for (const { f, el } of boxes) {
      const v = form.shown(f);
      const content = document.createElement('span');
      if (v.image) content.append(Object.assign(document.createElement('img'), { src: v.image, alt: '' }));
      else content.textContent = f.type === 'checkbox' ? (v.checked ? '✓' : '') : (v.text ?? '');
      el.replaceChildren(content);
      const filled = Boolean(v.image || v.checked || v.text);
      el.classList.toggle('filled', filled);
      el.classList.toggle('needed', f.required && !filled);
    }
  };
  redraw();
  return redraw;
}
