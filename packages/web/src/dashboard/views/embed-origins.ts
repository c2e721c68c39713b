/**
 * Embedded signing (issue 34 item 6): the origins whose pages may show this account's signing page in
 * a frame, one a line. The API checks each (https, or http on localhost / 127.0.0.1 / [::1]; exactly
 * scheme://host[:port]) and answers a bad one with a 400 naming it, shown under the field; nothing
 * changes then.
 */
import { api } from '../api.js';
import { announce, field, formError, h, onSubmit, value } from '../dom.js';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export function embedOriginsCard(origins: string[]): HTMLFormElement {
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-embed', class: 'card', id: 'embed-origins' },
    h('h2', { id: 'h-embed' }, 'Embedded signing'),
    h(
      'p',
      { class: 'hint' },
      'Your own pages can show the signing page in a frame (the SDK’s embedSigning) and receive its events. ' +
        'Only the origins listed here may frame it; with none, no page can.',
    ),
    field(
      'Allowed origins, one a line',
      'origins',
      { rows: 3, spellcheck: 'false', autocomplete: 'off', placeholder: 'https://app.example.com' },
      { tag: 'textarea', hint: 'https://host or https://host:port; http only for localhost and 127.0.0.1. At most 10.' },
    ),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Save origins'),
  );
  const box = form.elements.namedItem('origins') as HTMLTextAreaElement;
  box.value = origins.join('\n');
  onSubmit(form, async (f) => {
    f.querySelector('.ok')?.remove();
    const saved = await api.setEmbedOrigins(lines(value(f, 'origins')));
    box.value = saved.join('\n');
    const text = saved.length
      ? `Saved. ${saved.length === 1 ? 'One origin' : `${saved.length} origins`} may frame your signing pages.`
      : 'Saved. No page may frame your signing pages.';
    announce(text);
    f.append(h('p', { class: 'ok', role: 'status' }, text));
  });
  return form;
}
