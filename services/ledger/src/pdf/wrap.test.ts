import { describe, expect, it } from 'vitest';
import { wrapLines } from './wrap.js';

const width = (n: number) => (s: string) => s.length <= n;

describe('wrapLines', () => {
  it('breaks a sentence between words, and drops the space it breaks at', () => {
    expect(wrapLines('a recording that matched the prompts', width(12))).toEqual(['a recording', 'that matched', 'the prompts']);
  });
  it('breaks a hash anywhere, and a word longer than a line too', () => {
    expect(wrapLines('0123456789abcdef', width(6))).toEqual(['012345', '6789ab', 'cdef']);
    expect(wrapLines('ab 0123456789', width(6))).toEqual(['ab', '012345', '6789']);
  });
  it('keeps what fits on one line as it is', () => {
    expect(wrapLines('live', width(12))).toEqual(['live']);
    expect(wrapLines('', width(12))).toEqual(['']);
  });
  it('never breaks inside a grapheme: a Devanagari conjunct or a letter and its mark stays whole', () => {
    const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length;
    const lines = wrapLines('श्रीमतीप्रियाशर्मा', (l) => graphemes(l) <= 2);
    expect(lines.join('')).toBe('श्रीमतीप्रियाशर्मा');
    expect(lines[0]).toBe('श्रीम');
    expect(wrapLines('e\u0301e\u0301e\u0301', (l) => l.length <= 2)).toEqual(['e\u0301', 'e\u0301', 'e\u0301']);
  });
  it('breaks between Chinese or Japanese characters (written without spaces), words of other scripts whole', () => {
    expect(wrapLines('北京公司有限', width(4))).toEqual(['北京公司', '有限']);
    expect(wrapLines('abc 北京公司', width(6))).toEqual(['abc 北京', '公司']);
  });
});
