/** What every mail of this service shares: escaping and the HTML frame (plain text is written alongside). */
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The organisation as mails name it. */
export const orgOf = (orgName: string) => orgName || 'A Signet user';

/**
 * An account's branding as its mails show it (issue 34 item 4): the display name in place of the
 * organisation's, the colour of the header bar and the button (checked by identity for white text at
 * WCAG AA 4.5:1), the logo's public URL and the Reply-To address. Every part optional.
 */
export type MailBrand = { name?: string; color?: string; logoUrl?: string; replyTo?: string };

const COLOR = /^#[0-9a-f]{6}$/i;
const DEFAULT_COLOR = '#0b5cad';

/** The HTML body of a mail: paragraphs already escaped, the last ones greyed as notes. */
export function htmlPage(paragraphs: string[], notes: string[] = []): string {
  return `<!doctype html><html><body style="font-family:sans-serif">
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
${notes.map((p) => `<p style="color:#555">${p}</p>`).join('\n')}
</body></html>`;
}

/**
 * A signer's mail: the account's header (logo and name on its colour) when it has branding, the
 * paragraphs (already escaped) and the notes, in the recipient's language and direction.
 */
export function brandedPage(o: { lang: string; rtl: boolean; brand?: MailBrand; paragraphs: string[]; notes: string[] }): string {
  const color = o.brand?.color && COLOR.test(o.brand.color) ? o.brand.color : DEFAULT_COLOR;
  const logo = o.brand?.logoUrl?.startsWith('http')
    ? `<img src="${esc(o.brand.logoUrl)}" alt="" height="32" style="height:32px;vertical-align:middle;margin:0 8px">`
    : '';
  const header =
    o.brand?.name || logo
      ? `<div style="background:${color};color:#ffffff;padding:12px 16px;font-weight:bold">${logo}${esc(o.brand?.name ?? '')}</div>\n`
      : '';
  return `<!doctype html><html lang="${esc(o.lang)}" dir="${o.rtl ? 'rtl' : 'ltr'}"><body style="font-family:sans-serif">
${header}${o.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
${o.notes.map((p) => `<p style="color:#555">${p}</p>`).join('\n')}
</body></html>`;
}

/** A link drawn as a button in the account's colour (white text: the colour passed the contrast check). */
export function button(href: string, label: string, brand?: MailBrand): string {
  const color = brand?.color && COLOR.test(brand.color) ? brand.color : DEFAULT_COLOR;
  return `<a href="${esc(href)}" style="display:inline-block;background:${color};color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(label)}</a>`;
}
