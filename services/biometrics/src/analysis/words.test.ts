import { describe, expect, it } from 'vitest';
import { WORDS_THRESHOLD, wordsVerdict } from './words.js';

const words = ['anchor', 'marriage', 'bag', 'zoo'];
const answer = (scores: (number | null)[]) => ({
  aligned: true,
  missing: [] as string[],
  score: Math.min(...scores.map((s) => s ?? -1e9)),
  words: words.map((word, i) => ({ word, start: 0.5 + i, end: 1.2 + i, score: scores[i] })),
});

describe('wordsVerdict', () => {
  it('passes when every word reaches the threshold, and lists each word heard with its time and score', () => {
    const v = wordsVerdict(answer([-4.2, -6, -8.5, WORDS_THRESHOLD]), words, 2, '2.00–7.50 s');
    expect(v).toMatchObject({ passed: true, outcome: 'passed', score: WORDS_THRESHOLD, threshold: WORDS_THRESHOLD });
    expect(v.detail).toBe(
      `4/4 words heard in 2.00–7.50 s: anchor heard 2.50–3.20 s (-4.20); marriage heard 3.50–4.20 s (-6.00); ` +
        `bag heard 4.50–5.20 s (-8.50); zoo heard 5.50–6.20 s (${WORDS_THRESHOLD.toFixed(2)}); ` +
        `lowest ${WORDS_THRESHOLD.toFixed(2)}, threshold ${WORDS_THRESHOLD}`,
    );
  });

  it('fails on one word under the threshold and says which', () => {
    const v = wordsVerdict(answer([-4.2, -6, WORDS_THRESHOLD - 3.49, -5]), words, 0, '0.00–5.00 s');
    expect(v).toMatchObject({ passed: false, outcome: 'not_heard' });
    expect(v.detail).toMatch(/^3\/4 words heard in 0\.00–5\.00 s: /);
    expect(v.detail).toContain(`bag not heard 2.50–3.20 s (${(WORDS_THRESHOLD - 3.49).toFixed(2)})`);
    expect(v.detail).toContain('anchor heard 0.50–1.20 s (-4.20)');
  });

  it('fails a word without a score (n/a)', () => {
    const v = wordsVerdict(answer([-4, null, -5, -6]), words, 0, '0.00–5.00 s');
    expect(v.passed).toBe(false);
    expect(v.detail).toContain('marriage not heard 1.50–2.20 s (n/a)');
  });

  it('words that cannot be aligned in order are not heard, with no score', () => {
    const v = wordsVerdict({ aligned: false, score: null, words: [], missing: [] }, words, 0, '0.00–5.00 s');
    expect(v).toMatchObject({ passed: false, score: null, outcome: 'not_aligned' });
    expect(v.detail).toBe('words not heard in 0.00–5.00 s: the audio cannot be aligned to the 4 words in order');
  });

  it('a word outside the dictionary cannot be verified', () => {
    const v = wordsVerdict({ aligned: false, score: null, words: [], missing: ['zzyzxq'] }, words, 0, '0.00–5.00 s');
    expect(v).toMatchObject({ passed: false, score: null, outcome: 'unknown_word', missing: ['zzyzxq'] });
    expect(v.detail).toBe('cannot verify: not in the pronunciation dictionary: zzyzxq');
  });
});
