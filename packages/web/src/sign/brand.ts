/**
 * The organisation's branding on the signing page (issue 34 item 4), as the gateway wrote it into
 * the page's meta tags: its colour for the header and the primary buttons (white text on it reaches
 * WCAG AA 4.5:1, checked when it was set), its display name and logo in the header. Applied through
 * the CSSOM and the DOM (the page's CSP allows no inline style).
 */
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';

export function applyBrand(): void {
  const color = meta('signet-brand-color');
  const name = meta('signet-brand-name');
  const logo = meta('signet-brand-logo');
  const root = document.documentElement;
  if (/^#[0-9a-f]{6}$/.test(color)) {
    root.style.setProperty('--accent', color);
    root.style.setProperty('--accent-fg', '#ffffff');
    document.body.classList.add('branded');
  }
  const brand = document.querySelector<HTMLElement>('.bar .brand');
  if (!brand || (!name && !logo)) return;
  const parts: Node[] = [];
  if (/^\/api\/branding\/logos\/[0-9a-f]{64}$/.test(logo)) {
    const img = document.createElement('img');
    img.src = logo;
    img.alt = name ? '' : 'Logo';
    img.className = 'brand-logo';
    parts.push(img);
  }
  if (name) parts.push(document.createTextNode(name));
  brand.replaceChildren(...parts);
}
