import { describe, expect, it } from 'vitest';
import { addressPolicy, parseNetworks } from './address-policy.js';
import { resolveAllowed } from '../delivery/resolve.js';

describe('webhook address policy', () => {
  const strict = addressPolicy('');

  it('refuses loopback, private, link-local and other non-public addresses by default', () => {
    expect(strict.refusal('127.0.0.1')).toBe('loopback');
    expect(strict.refusal('127.8.9.10')).toBe('loopback');
    expect(strict.refusal('::1')).toBe('loopback');
    expect(strict.refusal('169.254.169.254')).toBe('link-local');
    expect(strict.refusal('fe80::1')).toBe('link-local');
    expect(strict.refusal('10.1.2.3')).toBe('private');
    expect(strict.refusal('172.16.0.1')).toBe('private');
    expect(strict.refusal('172.31.255.255')).toBe('private');
    expect(strict.refusal('192.168.1.1')).toBe('private');
    expect(strict.refusal('100.64.0.1')).toBe('private');
    expect(strict.refusal('fd00::1')).toBe('private');
    expect(strict.refusal('0.0.0.0')).toBe('unspecified');
    expect(strict.refusal('::')).toBe('unspecified');
    expect(strict.refusal('224.0.0.1')).toBe('multicast');
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries.
    expect(strict.refusal('::ffff:127.0.0.1')).toBe('loopback');
    expect(strict.refusal('::ffff:169.254.169.254')).toBe('link-local');
  });

  it('lets public addresses through, including those next to refused ranges', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '172.15.255.255', '172.32.0.0', '169.253.255.255', '2606:4700::1111'])
      expect(strict.refusal(a)).toBeNull();
  });

  it('allows exactly the operator’s networks', () => {
    const loopback = addressPolicy('127.0.0.0/8, ::1');
    expect(loopback.refusal('127.0.0.1')).toBeNull();
    expect(loopback.refusal('::1')).toBeNull();
    expect(loopback.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(loopback.refusal('169.254.169.254')).toBe('link-local');
    expect(loopback.refusal('10.0.0.1')).toBe('private');
  });

  it('refuses an allow list that is not CIDRs', () => {
    expect(() => parseNetworks('127.0.0.1/33')).toThrow(/not a network/);
    expect(() => parseNetworks('localhost')).toThrow(/not a network/);
    expect(() => parseNetworks('10.0.0.0/x')).toThrow(/not a network/);
    expect(parseNetworks(' 10.0.0.0/8 ,::1 ')).toEqual([
      ['10.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]);
  });

  it('judges every address a name resolves to, and returns the one to connect to', async () => {
    const resolver = async (host: string) =>
      ({
        'rebind.example': [
          { address: '93.184.215.14', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
        'metadata.example': [{ address: '169.254.169.254', family: 4 }],
        'ok.example': [{ address: '93.184.215.14', family: 4 }],
      })[host] ?? [];
    expect(await resolveAllowed('rebind.example', strict, resolver)).toEqual({
      refused: 'rebind.example resolves to a loopback address, which webhooks may not reach',
    });
    expect(await resolveAllowed('metadata.example', strict, resolver)).toMatchObject({
      refused: expect.stringMatching(/link-local/),
    });
    expect(await resolveAllowed('nowhere.example', strict, resolver)).toEqual({ refused: 'nowhere.example does not resolve' });
    expect(await resolveAllowed('ok.example', strict, resolver)).toEqual({ address: '93.184.215.14', family: 4 });
    // An IP literal is its own answer.
    expect(await resolveAllowed('169.254.169.254', strict)).toMatchObject({ refused: expect.stringMatching(/link-local/) });
  });
});
