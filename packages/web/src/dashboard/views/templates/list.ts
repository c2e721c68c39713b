/** Templates: the organisation's list, and a new one from a PDF and its signer roles (the fields are placed in the editor). */
import { field, fmtDate, formError, h, onSubmit, value } from '../../dom.js';
import type { App, View } from '../../main.js';
import { templateStrings as t } from './strings.js';
import { templatesApi } from './templates-api.js';
import { keepDocument } from './editor.js';

export async function templatesView(app: App): Promise<View> {
  const items = await templatesApi.list();
  const list = items.length
    ? h(
        'ul',
        { class: 'template-list', id: 'templates' },
        ...items.map((tpl) =>
          h(
            'li',
            { 'data-template': tpl.id },
            h('a', { href: `/app/templates/${encodeURIComponent(tpl.id)}`, 'data-link': true }, tpl.name),
            h('span', { class: 'muted' }, ` · ${t.roleCount(tpl.roles.length)} · ${t.fieldCount(tpl.fields.length)}`),
            tpl.updated_at ? h('span', { class: 'muted' }, ` · ${fmtDate(tpl.updated_at)}`) : null,
          ),
        ),
      )
    : h('p', { class: 'muted', id: 'templates' }, t.none);

  const docInput = h('input', {
    type: 'file',
    name: 'document',
    id: 'tpl-document',
    accept: 'application/pdf,.pdf',
    required: true,
  });
  const form = h(
    'form',
    { novalidate: true, id: 'template-create', 'aria-labelledby': 'h-tpl-new' },
    h('h2', { id: 'h-tpl-new' }, t.newHeading),
    field(t.name, 'name', { required: true, maxlength: 200, autocomplete: 'off' }),
    h(
      'div',
      { class: 'field', 'data-field': 'document' },
      h('label', { for: 'tpl-document' }, t.document),
      docInput,
      h('p', { class: 'field-error', hidden: true }),
    ),
    field(t.roles, 'roles', { value: 'client', autocomplete: 'off' }, { hint: t.rolesHint }),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, t.create),
  );
  onSubmit(form, async () => {
    const file = docInput.files?.[0];
    if (!file) throw new Error(t.noDocument);
    const roles = value(form, 'roles')
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean)
      .map((name, i) => ({ name, order: i + 1 }));
    const tpl = await templatesApi.create(value(form, 'name').trim(), file, roles);
    keepDocument(tpl.id, await file.arrayBuffer());
    app.go(`/app/templates/${encodeURIComponent(tpl.id)}`, { notice: t.created });
  });

  return {
    id: 'templates',
    title: t.listTitle,
    nav: 'templates',
    node: h('section', {}, h('h1', { tabindex: -1 }, t.listTitle), h('p', { class: 'hint' }, t.intro), list, form),
  };
}
