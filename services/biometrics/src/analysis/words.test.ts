import { describe, expect, it } from 'vitest';
import { WORDS_FUSED, WORDS_THRESHOLD, wordsVerdict } from './words.js';

const words = ['anchor', 'marriage', 'bag', 'zoo'];
const answer = (scores: (number | null)[]) => ({
  aligned: true,
  missing: [] as string[],
  score: Math.min(...scores.map((s) => s ?? -1e9)),
  words: words.map((word, i) => ({ word, start: 0.5 + i, end: 1.2 + i, score: scores[i] })),
});

describe('wordsVerdict, pocketsphinx alone (a worker without Whisper)', () => {
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

describe('wordsVerdict with Whisper (each word: Whisper + weight × pocketsphinx)', () => {
  const { weight, threshold } = WORDS_FUSED;
  const both = (ps: number[], wh: (number | null)[]) => ({
    aligned: true,
    missing: [] as string[],
    score: Math.min(...ps),
    second: Math.min(...wh.map((s) => s ?? -1e9)),
    words: words.map((word, i) => ({ word, start: 0.5 + i, end: 1.2 + i, score: ps[i]!, second: wh[i] })),
  });

  it('accepts a word pocketsphinx alone refuses when Whisper hears it clearly, and says how it scored', () => {
    // anchor: pocketsphinx -10.47 (under its -10 alone), Whisper -1: fused -1 + weight × -10.47
    const v = wordsVerdict(both([-10.47, -6, -5, -4], [-1, -0.5, -0.8, -0.3]), words, 2, '2.00–7.50 s');
    const anchor = -1 + weight * -10.47;
    expect(anchor).toBeGreaterThanOrEqual(threshold);
    expect(v).toMatchObject({ passed: true, outcome: 'passed', threshold });
    expect(v.score).toBeCloseTo(anchor, 2);
    expect(v.detail).toContain(`anchor heard 2.50–3.20 s (${anchor.toFixed(2)}: whisper -1.00, pocketsphinx -10.47)`);
    expect(v.detail).toMatch(
      new RegExp(`^4/4 words heard in 2\\.00–7\\.50 s: .*threshold ${threshold} \\(whisper \\+ ${weight} × pocketsphinx\\)$`),
    );
  });

  it('refuses the phrase when Whisper finds one word improbable, though pocketsphinx scored it well', () => {
    // a similar-sounding substitute: pocketsphinx -6 (passes alone), Whisper -8
    const v = wordsVerdict(both([-4, -5, -6, -4], [-0.5, -0.4, -8, -0.2]), words, 0, '0.00–5.00 s');
    expect(-8 + weight * -6).toBeLessThan(threshold);
    expect(v).toMatchObject({ passed: false, outcome: 'not_heard' });
    expect(v.detail).toMatch(/^3\/4 words heard/);
    expect(v.detail).toContain('bag not heard 2.50–3.20 s');
  });

  it('refuses at the threshold edge: just under fails, exactly at passes', () => {
    const at = threshold - weight * -8; // Whisper score that puts a -8 pocketsphinx word exactly on the threshold
    expect(wordsVerdict(both([-8, -4, -4, -4], [at, -0.1, -0.1, -0.1]), words, 0, 'w').passed).toBe(true);
    expect(wordsVerdict(both([-8, -4, -4, -4], [at - 0.01, -0.1, -0.1, -0.1]), words, 0, 'w').passed).toBe(false);
  });

  it('a word Whisper did not score is not heard', () => {
    const v = wordsVerdict(both([-4, -4, -4, -4], [-0.1, null, -0.1, -0.1]), words, 0, '0.00–5.00 s');
    expect(v.passed).toBe(false);
    expect(v.detail).toContain('marriage not heard 1.50–2.20 s (n/a: whisper n/a, pocketsphinx -4.00)');
  });

  it('still refuses what cannot be aligned, whatever the second recogniser', () => {
    const v = wordsVerdict({ aligned: false, score: null, second: null, words: [], missing: [] }, words, 0, '0.00–5.00 s');
    expect(v).toMatchObject({ passed: false, score: null, outcome: 'not_aligned' });
  });
});
