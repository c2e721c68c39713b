/** The selected field's role and rules in the template editor; each change is applied to the field at once. */
import { h, uid } from '../../dom.js';
import { templateStrings as t } from './strings.js';
import type { TemplateField } from './templates-api.js';

const COMPUTED = new Set(['date_signed', 'full_name', 'email']);

export function fieldProps(
  f: TemplateField | undefined,
  roles: { name: string }[],
  hooks: { changed(): void; remove(): void },
): HTMLElement {
  const panel = h('div', { class: 'tpl-props', id: 'tpl-props' }, h('h2', {}, t.selected));
  if (!f) {
    panel.append(h('p', { class: 'hint' }, t.nothingSelected));
    return panel;
  }
  const row = (label: string, control: HTMLElement, name: string) => {
    const id = uid(`tp-${name}`);
    control.id = id;
    control.setAttribute('name', name);
    return h('div', { class: 'field', 'data-prop': name }, h('label', { for: id }, label), control);
  };
  const set = (patch: Partial<TemplateField>) => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined || v === '') delete f[k];
      else f[k] = v;
    }
    hooks.changed();
  };
  const role = h('select', {}, ...roles.map((r) => h('option', { value: r.name }, r.name)));
  role.value = f.role;
  role.onchange = () => set({ role: role.value });
  const label = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });
  label.value = f.label ?? '';
  label.oninput = () => set({ label: label.value });
  const required = h('input', { type: 'checkbox', id: uid('tp-required') });
  required.checked = f.required !== false;
  required.onchange = () => set({ required: required.checked });
  panel.append(
    h('p', { class: 'hint', id: 'tpl-place' }, f.anchor ? t.anchored(f.anchor) : t.place(f)),
    row(t.role, role, 'role'),
    row(t.label, label, 'label'),
  );
  if (!COMPUTED.has(f.type))
    panel.append(h('div', { class: 'check', 'data-prop': 'required' }, required, h('label', { for: required.id }, t.required)));
  if (f.type === 'text') {
    const max = h('input', { type: 'number', min: 1, max: 1000, inputmode: 'numeric' });
    max.value = f.max_length ? String(f.max_length) : '';
    max.oninput = () => set({ max_length: max.value ? Number(max.value) : undefined });
    const pattern = h('input', { type: 'text', maxlength: 200, autocomplete: 'off', spellcheck: 'false' });
    pattern.value = f.pattern ?? '';
    pattern.oninput = () => set({ pattern: pattern.value });
    panel.append(row(t.maxLength, max, 'max_length'), row(t.pattern, pattern, 'pattern'));
  }
  if (f.type === 'dropdown') {
    const options = h('textarea', { rows: 4 });
    options.value = (f.options ?? []).join('\n');
    options.oninput = () =>
      set({
        options: options.value
          .split('\n')
          .map((o) => o.trim())
          .filter(Boolean),
      });
    panel.append(row(t.options, options, 'options'));
  }
  panel.append(
    h('button', { type: 'button', class: 'danger', id: 'tpl-remove-field', onclick: () => hooks.remove() }, t.removeField),
  );
  return panel;
}
