/**
 * The form beside the document: one labelled control per field the signer fills (text, checkbox,
 * dropdown), one adopted signature and one set of initials, and the fields filled by the sender or
 * the service shown read-only. Typing happens here, at a readable size, not in the document's small
 * boxes; each box on the page leads to its control. Errors (the page's own or the service's, which
 * names the field: `values.<id>: …`, `signature: …`) are shown under the control they are about.
 */
import type { Body, Schemas } from '../shared/api-types.js';
import { fieldStrings as t } from './fields-strings.js';
import { markPad, type MarkPad } from './mark-pad.js';

export type SignerField = Schemas['SignerField'];
type Submission = Body<'/api/sign/{token}/fields', 'put'>;
type Value = string | boolean;

const COMPUTED = new Set(['date_signed', 'full_name', 'email']);
const MARKS = new Set(['signature', 'initials']);

export type FieldsForm = {
  element: HTMLFormElement;
  /** What the document's box of a field shows now. */
  shown(f: SignerField): { text?: string; image?: string; checked?: boolean };
  /** Required fields left empty: errors shown, the first focused; false when any. */
  checkRequired(): boolean;
  body(): Submission;
  /** Shows the service's refusal under its field; false when it names none of them. */
  showError(detail: string): boolean;
  clearErrors(): void;
  focus(key: string): void;
};

type Row = { wrap: HTMLElement; error: HTMLElement; focus: () => void };

/** The controls: a row per field filled here, one pad per mark (signature, initials). */
function controls(fields: SignerField[], form: HTMLFormElement, onChange: () => void) {
  const rows = new Map<string, Row>();
  const inputs = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const pads = new Map<string, MarkPad>();
  for (const f of fields) {
    if (MARKS.has(f.type)) {
      if (pads.has(f.type)) continue;
      const places = fields.filter((g) => g.type === f.type).reduce((n, g) => n + g.places.length, 0);
      const pad = markPad(f.type as 'signature' | 'initials', places, onChange);
      pads.set(f.type, pad);
      const required = fields.some((g) => g.type === f.type && g.required);
      if (required) pad.element.querySelector('legend')!.append(requiredTag());
      const error = errorLine(`err-mark-${f.type}`);
      pad.element.append(error);
      pad.element.setAttribute('aria-describedby', error.id);
      form.append(pad.element);
      rows.set(f.type, { wrap: pad.element, error, focus: () => pad.focus() });
      continue;
    }
    const row = fieldRow(f, rows.size, onChange);
    if (row.input) inputs.set(f.id, row.input);
    form.append(row.wrap);
    rows.set(`values.${f.id}`, { wrap: row.wrap, error: row.error, focus: () => (row.input ?? row.wrap).focus() });
  }
  return { rows, inputs, pads };
}

export function fieldsForm(fields: SignerField[], onChange: () => void): FieldsForm {
  const form = document.createElement('form');
  form.className = 'fields-form';
  form.noValidate = true;
  const h = document.createElement('h2');
  h.textContent = t.formHeading;
  form.append(h);
  const { rows, inputs, pads } = controls(fields, form, onChange);
  // A changed value takes its error away (the service checks it again on saving).
  form.addEventListener('input', (e) => {
    const wrap = (e.target as HTMLElement).closest<HTMLElement>('.field-row, .mark');
    if (!wrap?.classList.contains('invalid')) return;
    wrap.classList.remove('invalid');
    wrap.querySelector<HTMLElement>('.field-error')!.hidden = true;
    wrap.querySelector('[aria-invalid]')?.removeAttribute('aria-invalid');
  });
  const valueOf = (f: SignerField): Value | undefined => {
    const el = inputs.get(f.id);
    if (!el) return f.value ?? undefined;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') return el.checked;
    return el.value;
  };
  const setError = (key: string, message: string) => {
    const row = rows.get(key);
    if (!row) return false;
    row.error.textContent = message;
    row.error.hidden = false;
    row.wrap.classList.add('invalid');
    row.wrap.querySelector('input:not([type=radio]),select')?.setAttribute('aria-invalid', 'true');
    return true;
  };
  const api: FieldsForm = {
    element: form,
    shown(f) {
      if (MARKS.has(f.type)) return pads.get(f.type)?.preview() ?? {};
      const v = valueOf(f);
      if (f.type === 'checkbox') return { checked: v === true };
      return { text: typeof v === 'string' ? v : '' };
    },
    checkRequired() {
      api.clearErrors();
      let first: string | undefined;
      for (const f of fields) {
        if (!f.required || f.readonly || COMPUTED.has(f.type)) continue;
        const key = MARKS.has(f.type) ? f.type : `values.${f.id}`;
        const missing = MARKS.has(f.type)
          ? !pads.get(f.type)?.value()
          : f.type === 'checkbox'
            ? valueOf(f) !== true
            : !valueOf(f);
        if (!missing || rows.get(key)?.error.hidden === false) continue;
        setError(key, MARKS.has(f.type) ? t.missingMark : f.type === 'checkbox' ? t.unticked : t.missing);
        first ??= key;
      }
      if (first) api.focus(first);
      return !first;
    },
    body: () => submission(fields, inputs, pads, valueOf),
    showError(detail) {
      const m = /^(values\.[^:]+|signature|initials): (.*)$/s.exec(detail);
      if (!m || !setError(m[1]!, m[2]!)) return false;
      api.focus(m[1]!);
      return true;
    },
    clearErrors() {
      for (const row of rows.values()) {
        row.error.hidden = true;
        row.wrap.classList.remove('invalid');
        row.wrap.querySelector('[aria-invalid]')?.removeAttribute('aria-invalid');
      }
    },
    focus(key) {
      const row = rows.get(key);
      row?.wrap.scrollIntoView({ block: 'center' });
      row?.focus();
    },
  };
  return api;
}

function requiredTag() {
  const s = document.createElement('span');
  s.className = 'req';
  s.textContent = ` (${t.required})`;
  return s;
}

function errorLine(id: string) {
  const p = document.createElement('p');
  p.className = 'error field-error';
  p.id = id;
  p.hidden = true;
  return p;
}

/** One field's label, control (or read-only value), hint and error line. */
function fieldRow(f: SignerField, n: number, onChange: () => void) {
  const wrap = document.createElement('div');
  wrap.className = 'field-row';
  wrap.dataset.field = f.id;
  const id = `fld-${n}`;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = f.label || t.kinds[f.type] || f.type;
  if (f.required && !f.readonly && !COMPUTED.has(f.type)) label.append(requiredTag());
  const error = errorLine(`${id}-err`);
  const hint = document.createElement('p');
  hint.className = 'small';
  hint.id = `${id}-hint`;
  if (f.readonly || COMPUTED.has(f.type)) {
    const out = document.createElement('output');
    out.id = id;
    out.className = 'field-value';
    out.textContent = typeof f.value === 'boolean' ? (f.value ? '✓' : '✗') : (f.value ?? '');
    hint.textContent = f.type === 'date_signed' ? t.dateSigned : f.readonly ? t.readonly : t.computed;
    wrap.append(label, out, hint, error);
    return { wrap, error, input: undefined };
  }
  const input = control(f, id);
  input.setAttribute('aria-describedby', `${id}-hint ${id}-err`);
  input.addEventListener('input', onChange);
  input.addEventListener('change', onChange);
  if (f.type === 'text' && f.max_length) hint.textContent = t.maxLength(f.max_length);
  if (f.type === 'checkbox') {
    wrap.classList.add('field-check');
    label.prepend(input);
    wrap.append(label, hint, error);
  } else wrap.append(label, input, hint, error);
  return { wrap, error, input };
}

function control(f: SignerField, id: string): HTMLInputElement | HTMLSelectElement {
  if (f.type === 'dropdown') {
    const sel = document.createElement('select');
    sel.id = id;
    sel.append(new Option(t.choose, ''));
    for (const o of f.options ?? []) sel.append(new Option(o, o));
    sel.value = typeof f.value === 'string' ? f.value : '';
    return sel;
  }
  const input = document.createElement('input');
  input.id = id;
  if (f.type === 'checkbox') {
    input.type = 'checkbox';
    input.checked = f.value === true;
    return input;
  }
  input.type = 'text';
  if (f.max_length) input.maxLength = f.max_length;
  input.value = typeof f.value === 'string' ? f.value : '';
  return input;
}

/** The PUT's body: the values of the controls (empty ones left out) and the adopted marks. */
function submission(
  fields: SignerField[],
  inputs: Map<string, unknown>,
  pads: Map<string, MarkPad>,
  valueOf: (f: SignerField) => Value | undefined,
): Submission {
  const values: Record<string, Value> = {};
  for (const f of fields) {
    if (!inputs.has(f.id)) continue;
    const v = valueOf(f);
    if (v !== undefined && v !== '') values[f.id] = v;
  }
  const body: Submission = { values };
  const sig = pads.get('signature')?.value();
  const ini = pads.get('initials')?.value();
  if (sig) body.signature = sig;
  if (ini) body.initials = ini;
  return body;
}
