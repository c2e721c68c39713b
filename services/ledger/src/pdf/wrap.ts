/**
 * Breaks `value` into lines that `fits`, in logical (reading) order, at the last break opportunity
 * that fits: a space (dropped at the break), or between two characters of a script written without
 * spaces (Han, kana), so words stay whole. A word wider than a whole line (a hash, a seal) is broken
 * where it must, but never inside a grapheme (a letter and its marks, a Devanagari conjunct).
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Scripts written without spaces between words: a line may break between any two of their characters. */
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f]/u;

export function wrapLines(value: string, fits: (line: string) => boolean): string[] {
  const g = [...segmenter.segment(value)].map((s) => s.segment);
  /** A line may start at grapheme i: after a space, or at either side of a character of NO_SPACES. */
  const opportunity = (i: number) =>
    i > 0 && i < g.length && g[i] !== ' ' && (g[i - 1] === ' ' || NO_SPACES.test(g[i - 1]!) || NO_SPACES.test(g[i]!));
  const lines: string[] = [];
  const fitsFrom = (start: number, end: number) => fits(g.slice(start, end).join(''));
  let start = 0;
  for (;;) {
    if (fitsFrom(start, g.length)) {
      lines.push(g.slice(start).join(''));
      return lines;
    }
    // The longest line from start that fits (at least one grapheme), by bisection: few measures per line.
    let end = start + 1;
    let over = g.length;
    while (over - end > 1) {
      const mid = (end + over) >> 1;
      if (fitsFrom(start, mid)) end = mid;
      else over = mid;
    }
    let best = -1;
    for (let i = end; i > start && best < 0; i--) if (opportunity(i)) best = i;
    const cut = g[end] === ' ' || best <= start ? end : best;
    lines.push(g.slice(start, cut).join('').replace(/ +$/, ''));
    start = cut;
    while (g[start] === ' ') start++;
    if (start >= g.length) return lines;
  }
}
