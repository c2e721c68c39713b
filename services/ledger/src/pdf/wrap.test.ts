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
});
