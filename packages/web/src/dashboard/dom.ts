/** Small DOM helpers: elements, labelled fields with their error slot, confirmation dialogs, dates. */
import { ApiError, type Summary } from './api.js';

type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

let seq = 0;
export const uid = (p: string) => `${p}-${++seq}`;

/** A labelled input with a hint and an error slot tied to it by aria-describedby. */
export function field(
  label: string,
  name: string,
  attrs: Attrs = {},
  opts: { hint?: string; tag?: 'input' | 'select' | 'textarea'; options?: [string, string][] } = {},
): HTMLDivElement {
  const id = uid(name);
  const errId = `${id}-err`;
  const hintId = opts.hint ? `${id}-hint` : undefined;
  const described = [hintId, errId].filter(Boolean).join(' ');
  let control: HTMLElement;
  if (opts.tag === 'select') {
    control = h(
      'select',
      { id, name, 'aria-describedby': described, ...attrs },
      ...(opts.options ?? []).map(([v, l]) => h('option', { value: v }, l)),
    );
  } else control = h(opts.tag ?? 'input', { id, name, 'aria-describedby': described, ...attrs });
  return h(
    'div',
    { class: 'field', 'data-field': name },
    h('label', { for: id }, label),
    opts.hint ? h('p', { class: 'hint', id: hintId }, opts.hint) : null,
    control,
    h('p', { class: 'field-error', id: errId, hidden: true }),
  );
}

/** The form-level error slot, placed beside the form's submit button. */
export function formError(): HTMLParagraphElement {
  return h('p', { class: 'form-error', role: 'alert', hidden: true });
}

export function clearErrors(root: HTMLElement) {
  for (const e of root.querySelectorAll<HTMLElement>('.field-error, .form-error')) {
    e.hidden = true;
    e.textContent = '';
  }
  for (const c of root.querySelectorAll('[aria-invalid]')) c.removeAttribute('aria-invalid');
}

export const message = (err: unknown) =>
  err instanceof ApiError ? err.detail : err instanceof Error ? err.message : 'Something went wrong. Try again.';

/**
 * Puts an API error beside the field it names (details start with the field: "signer_email: …",
 * "email is required"), else in the form's error slot; focuses what needs fixing.
 */
export function showError(root: HTMLElement, err: unknown, aliases: Record<string, string> = {}) {
  const text = message(err);
  const named = /^([a-z_]+)(?:\.\d+)?[:\s]/.exec(text)?.[1];
  const fieldName = named ? (aliases[named] ?? named) : undefined;
  const box = fieldName ? root.querySelector<HTMLElement>(`[data-field="${fieldName}"]`) : null;
  if (box) {
    const slot = box.querySelector<HTMLElement>('.field-error')!;
    slot.textContent = text;
    slot.hidden = false;
    const control = box.querySelector<HTMLElement>('input, select, textarea');
    control?.setAttribute('aria-invalid', 'true');
    control?.focus();
    return;
  }
  const slot = root.querySelector<HTMLElement>('.form-error');
  if (slot) {
    slot.textContent = text;
    slot.hidden = false;
  } else announce(text);
}

export function announce(text: string) {
  const live = document.getElementById('announce')!;
  live.textContent = '';
  setTimeout(() => (live.textContent = text), 30);
}

export const value = (form: HTMLFormElement, name: string) => {
  const el = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  return el?.value ?? '';
};

/** Runs a submit handler with the button busy and errors shown beside their cause. */
export function onSubmit(
  form: HTMLFormElement,
  fn: (form: HTMLFormElement) => Promise<void>,
  aliases: Record<string, string> = {},
) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const btn = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (btn) btn.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await fn(form);
    } catch (err) {
      showError(form, err, aliases);
    } finally {
      if (btn) btn.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
}

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). Resolves true on confirm. */
export function confirmDialog(title: string, text: string, confirmLabel: string, danger = true): Promise<boolean> {
  return new Promise((resolve) => {
    const titleId = uid('dlg');
    const dlg = h('dialog', { 'aria-labelledby': titleId, class: 'confirm' });
    const ok = h('button', { type: 'button', class: danger ? 'danger' : 'primary', 'data-confirm': 'yes' }, confirmLabel);
    const no = h('button', { type: 'button', 'data-confirm': 'no' }, 'Keep it');
    dlg.append(h('h2', { id: titleId }, title), h('p', {}, text), h('div', { class: 'row' }, no, ok));
    const done = (v: boolean) => {
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    ok.addEventListener('click', () => done(true));
    no.addEventListener('click', () => done(false));
    dlg.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(false);
    });
    document.body.append(dlg);
    dlg.showModal();
    no.focus();
  });
}

export const fmtDate = (iso: string | null | undefined) => {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};
export const fmtDay = (iso: string | null | undefined) => {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { dateStyle: 'long' });
};

/** Every status of a transaction (the SDK's enum: a new one is a type error here until it has a label). */
export const STATUS_LABEL: Record<Summary['status'], string> = {
  created: 'Sent',
  consent_accepted: 'Consented',
  capture_accepted: 'In review',
  ledger_issued: 'Certified',
  failed: 'Failed',
  cancelled: 'Cancelled',
  declined: 'Declined',
  expired: 'Expired',
};
export const TERMINAL = new Set<string>([
  'ledger_issued',
  'failed',
  'cancelled',
  'declined',
  'expired',
] satisfies Summary['status'][]);

export function chip(status: string) {
  return h('span', { class: `chip chip-${status}`, 'data-status': status }, STATUS_LABEL[status as Summary['status']] ?? status);
}

export function download(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
