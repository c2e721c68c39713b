import { describe, expect, it } from 'vitest';
import { parseWebauthnResponse } from './webauthn-response.js';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('parseWebauthnResponse', () => {
  it('finds the id and the challenge of the clientDataJSON', () => {
    const json = JSON.stringify({ id: 'abc', type: 'public-key', response: { clientDataJSON: b64({ challenge: 'xyz' }) } });
    expect(parseWebauthnResponse(json)).toMatchObject({ id: 'abc', challenge: 'xyz' });
  });

  it('refuses what is not a credential answer', () => {
    for (const bad of [
      '',
      'null',
      '[]',
      '{"id":"a"}',
      JSON.stringify({ id: 1, response: { clientDataJSON: b64({ challenge: 'x' }) } }),
      JSON.stringify({ id: 'a', response: { clientDataJSON: 'not json' } }),
      JSON.stringify({ id: 'a', response: { clientDataJSON: b64({ challenge: 5 }) } }),
      JSON.stringify({ id: 'a', response: { clientDataJSON: b64(null) } }),
    ])
      expect(parseWebauthnResponse(bad)).toBeNull();
  });
});
