import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Metrics } from '@signet/kit';
import { badRequest, HttpError } from './errors.js';
import { parseWith } from './route.js';
import { countTextRefusals, findTextProblem, jsonText, text, textError, textProblem } from './text.js';

const detailOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError) return `${e.status} ${e.message}`;
    throw e;
  }
  return 'accepted';
};

describe('the one text rule', () => {
  it('refuses C0 controls but tab and newline, DEL, C1 and lone surrogates', () => {
    for (const c of ['\u0000', '\u0001', '\r', '\u000b', '\u001b', '\u007f', '\u0085', '\u009f'])
      expect(textProblem(`a${c}b`), JSON.stringify(c)).toMatch(/control characters \(U\+00[0-9A-F]{2}\)/);
    expect(textProblem('a\ud800b')).toMatch(/well-formed/);
    expect(textProblem('\udc00')).toMatch(/well-formed/);
    for (const ok of ['Ada\tLovelace\nline two', 'Łódź 合同 😀', '', 'é'])
      expect(textProblem(ok), JSON.stringify(ok)).toBeUndefined();
  });
  it('walks JSON values: strings and keys, nested in objects and lists, naming the path', () => {
    expect(findTextProblem({ a: [1, { b: 'x\u0000' }] })).toEqual({ field: 'a.1.b', problem: expect.stringMatching(/U\+0000/) });
    expect(findTextProblem({ events: [{ data: { 'k\u0000': 1 } }] })?.field).toBe('events.0.data.k\\u0000');
    expect(findTextProblem({ a: 'fine', b: [true, null, 3] })).toBeUndefined();
  });
  it('text(): bounded, trimmed and NFC-normalised on request; details name the field', () => {
    const name = text({ trim: true, nfc: true, min: 1, max: 5, field: 'name' });
    expect(name.parse('  Zoe\u0301 ')).toBe('Zoé');
    expect(name.parse('e\u0301e\u0301e\u0301e\u0301e\u0301')).toBe('ééééé'); // 10 code units, 5 after NFC
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe('name: must be at most 5 characters');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('name: must not be empty');
    expect(name.safeParse('a\u0000').error?.issues[0]?.message).toBe('name: must not contain control characters (U+0000)');
    expect(z.object({ name }).safeParse({}).error?.issues[0]?.message).toBe('name: is required');
    expect(jsonText.safeParse({ x: ['\u0007'] }).error?.issues[0]?.path).toEqual(['x', '0']);
  });
  it('every request part parsed through route.ts is walked first, fields no schema names included: 400 naming the field', () => {
    const loose = z.object({ name: z.string() });
    expect(detailOf(() => parseWith(loose, { name: 'ok', extra: { deep: 'x\u0000' } }, 'body'))).toBe(
      '400 extra.deep: must not contain control characters (U+0000)',
    );
    expect(detailOf(() => parseWith(loose, { name: 'a\u001bb' }, 'body'))).toBe(
      '400 name: must not contain control characters (U+001B)',
    );
    expect(detailOf(() => parseWith(z.object({ q: z.string().optional() }), { q: ['\u0000'] }, 'query'))).toBe(
      '400 q.0: must not contain control characters (U+0000)',
    );
    expect(detailOf(() => parseWith(loose, { name: 'Ada\nLovelace\t' }, 'body'))).toBe('accepted');
  });
  it('counts refusals by request part, and passes every error on to the boundary', async () => {
    const metrics = new Metrics('gateway');
    const count = countTextRefusals(metrics);
    const passed: unknown[] = [];
    const run = (err: unknown) => count(err, {} as never, {} as never, (e?: unknown) => passed.push(e));
    run(textError('name', 'must not contain control characters (U+0000)'));
    run(textError('signer_name', 'must not contain control characters (U+0000)', 'multipart'));
    run(badRequest('something else'));
    expect(passed).toHaveLength(3);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/signet_gateway_text_refused_total\{part="body",service="gateway"\} 1/);
    expect(text).toMatch(/signet_gateway_text_refused_total\{part="multipart",service="gateway"\} 1/);
  });
});
