/**
 * Branding (issue 34 item 4): the display name, colour, Reply-To and logo signers see on the signing
 * page and in every mail, with a live preview of the page's header and of a mail. The colour is
 * checked here as the API checks it (white text at WCAG AA 4.5:1) so the preview says at once
 * whether it will be accepted; the API's 400 stays the authority and is shown under its field.
 */
import { api } from '../api.js';
import { announce, field, formError, h, onSubmit, value } from '../dom.js';

type Branding = Awaited<ReturnType<typeof api.branding>>;

const HEX = /^#[0-9a-f]{6}$/;
const SIGNET_BLUE = '#0b5cad';

/** White text on the colour, as WCAG 2 computes contrast (the same formula as identity's). */
export function contrastWithWhite(hex: string): number {
  const lin = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 1.05 / (0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]! + 0.05);
}

function preview(): { root: HTMLElement; update(b: { name: string; color: string; logo: string | null; org: string }): void } {
  const pageBar = h('div', { class: 'brand-preview-bar' });
  const mailBar = h('div', { class: 'brand-preview-bar' });
  const button = h('span', { class: 'brand-preview-button' }, 'Review and sign the document');
  const lead = h('p', {});
  const root = h(
    'div',
    { class: 'brand-preview', 'aria-label': 'Preview' },
    h('p', { class: 'hint' }, 'Signing page header'),
    h('div', { class: 'brand-preview-page' }, pageBar, h('p', { class: 'hint' }, 'Review and consent')),
    h('p', { class: 'hint' }, 'Signing link mail'),
    h('div', { class: 'brand-preview-mail' }, mailBar, lead, button),
  );
  const bar = (el: HTMLElement, name: string, color: string, logo: string | null) => {
    el.style.background = color;
    el.style.color = '#ffffff';
    el.replaceChildren(...(logo ? [h('img', { src: logo, alt: '', class: 'brand-preview-logo' })] : []), name);
  };
  return {
    root,
    update({ name, color, logo, org }) {
      const c = HEX.test(color) ? color : SIGNET_BLUE;
      bar(pageBar, name || 'Signet', c, logo);
      bar(mailBar, name || org, c, logo);
      button.style.background = c;
      button.style.color = '#ffffff';
      lead.textContent = `${name || org} has asked you to sign the document “contract.pdf”.`;
    },
  };
}

export function brandingCard(initial: Branding, orgName: string): HTMLFormElement {
  let current = initial;
  const view = preview();
  const contrast = h('p', { class: 'hint', id: 'brand-contrast', role: 'status' });
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-branding', class: 'card', id: 'branding' },
    h('h2', { id: 'h-branding' }, 'Branding'),
    h(
      'p',
      { class: 'hint' },
      'Your name, colour and logo on the signing page and in every mail to your signers; their replies go to your address.',
    ),
    field('Display name', 'display_name', { maxlength: 100, autocomplete: 'organization' }, { hint: `Empty: ${orgName}` }),
    field('Colour', 'color', { type: 'color' }, { hint: 'White text must be readable on it (WCAG AA, 4.5:1).' }),
    contrast,
    field('Reply-To address', 'reply_to', { type: 'email', autocomplete: 'email' }, { hint: 'Empty: replies go nowhere.' }),
    field(
      'Logo',
      'logo',
      { type: 'file', accept: 'image/png,image/jpeg' },
      { hint: 'PNG or JPEG, at most 512 KB and 1024×1024 pixels. SVG is not accepted.' },
    ),
    h('button', { type: 'button', id: 'brand-logo-remove' }, 'Remove the logo'),
    view.root,
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Save branding'),
  );
  const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  input('display_name').value = current.display_name;
  input('color').value = current.color || SIGNET_BLUE;
  input('reply_to').value = current.reply_to;
  let picked: string | null = null;
  const refresh = () => {
    const color = value(form, 'color').toLowerCase();
    const ratio = HEX.test(color) ? contrastWithWhite(color) : 0;
    contrast.textContent = `Contrast of white text: ${ratio.toFixed(2)}:1 — ${ratio >= 4.5 ? 'readable' : 'too light, choose a darker colour'}.`;
    view.update({ name: value(form, 'display_name').trim(), color, logo: picked ?? current.logo_url, org: orgName });
    (form.querySelector('#brand-logo-remove') as HTMLButtonElement).hidden = !current.logo_url;
  };
  form.addEventListener('input', refresh);
  input('logo').addEventListener('change', () => {
    const file = input('logo').files?.[0];
    if (picked) URL.revokeObjectURL(picked);
    picked = file ? URL.createObjectURL(file) : null;
    refresh();
  });
  form.querySelector('#brand-logo-remove')!.addEventListener('click', async () => {
    current = await api.deleteBrandingLogo();
    announce('The logo was removed.');
    refresh();
  });
  onSubmit(form, async (f) => {
    f.querySelector('.ok')?.remove();
    const color = value(f, 'color').toLowerCase();
    current = await api.setBranding({
      display_name: value(f, 'display_name').trim(),
      color: color === SIGNET_BLUE && !current.color ? '' : color,
      reply_to: value(f, 'reply_to').trim(),
    });
    const file = input('logo').files?.[0];
    if (file) current = await api.setBrandingLogo(file);
    input('logo').value = '';
    if (picked) URL.revokeObjectURL(picked);
    picked = null;
    refresh();
    const text = 'Saved. Your signers see this branding from now on.';
    announce(text);
    f.append(h('p', { class: 'ok', role: 'status' }, text));
  });
  refresh();
  return form;
}
