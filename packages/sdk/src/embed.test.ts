import { describe, expect, it } from 'vitest';
import { parseSigningEvent, SIGNING_EVENTS } from './embed.js';

describe('parseSigningEvent', () => {
  it('reads each event of the signing page with its details', () => {
    for (const type of SIGNING_EVENTS) expect(parseSigningEvent({ source: 'signet', version: 1, type })).toEqual({ type });
    expect(parseSigningEvent({ source: 'signet', version: 1, type: 'ready', step: 'consent' })).toEqual({
      type: 'ready',
      step: 'consent',
    });
    expect(parseSigningEvent({ source: 'signet', version: 1, type: 'failed', attempts_left: 2 })).toEqual({
      type: 'failed',
      attempts_left: 2,
    });
  });

  it('ignores any other message', () => {
    for (const data of [
      null,
      'ready',
      { type: 'ready' },
      { source: 'other', version: 1, type: 'ready' },
      { source: 'signet', version: 2, type: 'ready' },
      { source: 'signet', version: 1, type: 'hacked' },
      { source: 'signet', version: 1, type: 'toString' },
    ])
      expect(parseSigningEvent(data)).toBeUndefined();
    expect(parseSigningEvent({ source: 'signet', version: 1, type: 'failed', attempts_left: '2', extra: 1 })).toEqual({
      type: 'failed',
    });
  });
});
