/** One CSV cell: formula-looking text is neutralised with a leading apostrophe, then RFC 4180 quoting. */
export function csvCell(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
export const csvRow = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;
