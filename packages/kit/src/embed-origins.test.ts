import { describe, expect, it } from 'vitest';
import { checkEmbedOrigins, EMBED_ORIGINS_MAX, embedOriginProblem, frameAncestors } from './embed-origins.js';

const fail = (m: string) => new Error(m);

describe('embed origins', () => {
  it('accepts https origins with or without a port, and http on loopback names only', () => {
    for (const ok of [
      'https://app.example.com',
      'https://app.example.com:8443',
      'https://xn--bcher-kva.example',
      'http://127.0.0.1:5173',
      'http://localhost:3000',
      'http://[::1]:8080',
      'https://127.0.0.1',
    ])
      expect(embedOriginProblem(ok), ok).toBeUndefined();
  });

  it('refuses anything that is not exactly a serialized origin', () => {
    for (const bad of [
      '',
      '*',
      'https://*.example.com',
      'https://app.example.com/',
      'https://app.example.com/path',
      'https://app.example.com?x=1',
      'https://app.example.com#x',
      'https://user@app.example.com',
      'https://APP.example.com',
      'https://app.example.com:443',
      'http://localhost:80',
      'app.example.com',
      '//app.example.com',
      'javascript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'ftp://app.example.com',
      "https://a.example 'unsafe-inline'",
      'https://a.example;script-src *',
      'https://a.example,https://b.example',
      ' https://app.example.com',
      `https://${'a'.repeat(200)}.example`,
    ])
      expect(embedOriginProblem(bad), bad).toMatch(/must/);
  });

  it('refuses plain http beyond loopback, naming https', () => {
    expect(embedOriginProblem('http://app.example.com')).toMatch(/https/);
    expect(embedOriginProblem('http://10.0.0.1:8080')).toMatch(/https/);
    expect(embedOriginProblem('http://localhost.example.com')).toMatch(/https/);
  });

  it('names the position of the first bad origin, caps the count and drops duplicates', () => {
    expect(() => checkEmbedOrigins(['https://a.example', 'https://b.example/x'], fail)).toThrow(/^origins\[1\]: /);
    const many = Array.from({ length: EMBED_ORIGINS_MAX + 1 }, (_, i) => `https://a${i}.example`);
    expect(() => checkEmbedOrigins(many, fail)).toThrow(/at most 10/);
    expect(checkEmbedOrigins(['https://a.example', 'https://b.example', 'https://a.example'], fail)).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('frame-ancestors is the list, or none', () => {
    expect(frameAncestors([])).toBe("'none'");
    expect(frameAncestors(['https://a.example', 'http://127.0.0.1:5173'])).toBe('https://a.example http://127.0.0.1:5173');
  });
});
