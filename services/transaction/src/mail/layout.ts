/** What every mail of this service shares: escaping and the HTML frame (plain text is written alongside). */
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The organisation as mails name it. */
export const orgOf = (orgName: string) => orgName || 'A Signet user';

/** The HTML body of a mail: paragraphs already escaped, the last ones greyed as notes. */
export function htmlPage(paragraphs: string[], notes: string[] = []): string {
  return `<!doctype html><html><body style="font-family:sans-serif">
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
${notes.map((p) => `<p style="color:#555">${p}</p>`).join('\n')}
</body></html>`;
}
