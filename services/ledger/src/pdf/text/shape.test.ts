import { describe, expect, it } from 'vitest';
import { baseDirection, shapeLine } from './shape.js';

const texts = (line: ReturnType<typeof shapeLine>) => line.clusters.map((c) => c.text);
const fonts = (line: ReturnType<typeof shapeLine>) => line.clusters.map((c) => c.font);

describe('shapeLine: bidi, fonts and shaping of one line', { timeout: 30_000 }, () => {
  it('takes the paragraph direction from the first strong character', () => {
    expect(baseDirection('محمد Ali')).toBe('rtl');
    expect(baseDirection('Ali محمد')).toBe('ltr');
    expect(baseDirection('123 ')).toBe('ltr');
  });

  it('lays right-to-left text out from the right, numbers inside it left to right (UAX #9)', () => {
    expect(texts(shapeLine('אבג', 'regular', 'rtl'))).toEqual(['ג', 'ב', 'א']);
    expect(texts(shapeLine('אב 123', 'regular', 'rtl'))).toEqual(['1', '2', '3', ' ', 'ב', 'א']);
    expect(texts(shapeLine('a אב b', 'regular', 'ltr'))).toEqual(['a', ' ', 'ב', 'א', ' ', 'b']);
  });

  it('mirrors brackets in right-to-left runs: "(" shows the glyph of ")"', () => {
    const rtl = shapeLine('(א)', 'regular', 'rtl');
    // The same font (Noto Sans Hebrew: brackets after a Hebrew letter stay in its font), unmirrored.
    const glyphOf = (text: string, ch: string) =>
      shapeLine(text, 'regular', 'ltr').clusters.find((c) => c.text === ch)!.glyphs[0]!.gid;
    // Visually leftmost is the logical ")" drawn as "(".
    expect(rtl.clusters[0]!.text).toBe(')');
    expect(rtl.clusters[0]!.font).toBe('hebrew');
    expect(rtl.clusters[0]!.glyphs[0]!.gid).toBe(glyphOf('א(', '('));
    expect(rtl.clusters[0]!.glyphs[0]!.gid).not.toBe(glyphOf('א)', ')'));
  });

  it('puts each character in the first font that has it, marks and spaces staying with their run', () => {
    expect(fonts(shapeLine('a → b', 'regular', 'ltr'))).toEqual(['regular', 'regular', 'sc', 'sc', 'regular']);
    expect(new Set(fonts(shapeLine('محمد عبد', 'regular', 'rtl')))).toEqual(new Set(['arabic']));
    expect(new Set(fonts(shapeLine('山田 たろう', 'regular', 'ltr')))).toEqual(new Set(['jp']));
    expect(new Set(fonts(shapeLine('王小明', 'regular', 'ltr')))).toEqual(new Set(['sc']));
    // A line of a Japanese value without kana of its own (wrapped off) keeps the Japanese forms.
    expect(new Set(fonts(shapeLine('山田', 'regular', 'ltr')))).toEqual(new Set(['sc']));
    expect(new Set(fonts(shapeLine('山田', 'regular', 'ltr', true)))).toEqual(new Set(['jp']));
    expect(new Set(fonts(shapeLine('Bold Ω', 'bold', 'ltr')))).toEqual(new Set(['bold']));
  });

  it('shapes Devanagari: the vowel sign i is drawn before its consonant, one cluster for both', () => {
    const ki = shapeLine('कि', 'regular', 'ltr');
    expect(texts(ki)).toEqual(['कि']);
    const ka = shapeLine('क', 'regular', 'ltr').clusters[0]!.glyphs[0]!.gid;
    expect(ki.clusters[0]!.glyphs.map((g) => g.gid)).toHaveLength(2);
    expect(ki.clusters[0]!.glyphs[1]!.gid).toBe(ka);
    expect(ki.clusters[0]!.glyphs[0]!.x).toBeLessThan(ki.clusters[0]!.glyphs[1]!.x);
  });

  it('draws no bidi control and counts none in the width', () => {
    const plain = shapeLine('Ada (x)', 'regular', 'ltr');
    const isolated = shapeLine('\u2068Ada\u2069 (x)', 'regular', 'ltr');
    expect(texts(isolated)).toEqual(texts(plain));
    expect(isolated.width).toBeCloseTo(plain.width, 6);
  });
});
