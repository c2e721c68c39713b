import { describe, expect, it } from 'vitest';
import { Metrics, combinations } from './metrics.js';

describe('counters with known label values', () => {
  it('exports every combination at 0 before the first increment, so increase() sees that increment', async () => {
    const m = new Metrics('svc');
    const c = m.counter('x_total', 'x', ['kind', 'result'], { kind: ['a', 'b'], result: ['ok', 'failed'] });
    const zero = await m.registry.getSingleMetricAsString('x_total');
    for (const kind of ['a', 'b'])
      for (const result of ['ok', 'failed']) expect(zero).toContain(`x_total{kind="${kind}",result="${result}",service="svc"} 0`);
    c.inc({ kind: 'a', result: 'failed' });
    expect(await m.registry.getSingleMetricAsString('x_total')).toContain('x_total{kind="a",result="failed",service="svc"} 1');
  });

  it('exports nothing for a labelled counter without known values (the old behaviour)', async () => {
    const m = new Metrics('svc');
    m.counter('y_total', 'y', ['result']);
    expect(await m.registry.getSingleMetricAsString('y_total')).not.toMatch(/^y_total\{/m);
  });

  it('builds the combinations', () => {
    expect(combinations(['a', 'b'], { a: ['1', '2'], b: ['x'] })).toEqual([
      { a: '1', b: 'x' },
      { a: '2', b: 'x' },
    ]);
    expect(combinations([], {})).toEqual([{}]);
  });
});
