/**
 * Breaks `value` into lines that `fits`: at the last space of a line when it has one (sentences keep
 * their words whole; the space is dropped), else anywhere (hashes and seals have no spaces).
 */
export function wrapLines(value: string, fits: (line: string) => boolean): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of value) {
    if (line && !fits(line + ch)) {
      const space = line.lastIndexOf(' ');
      if (ch !== ' ' && space > 0) {
        lines.push(line.slice(0, space));
        line = line.slice(space + 1);
      } else {
        lines.push(line);
        line = '';
      }
      if (ch === ' ') continue;
    }
    line += ch;
  }
  lines.push(line);
  return lines;
}
