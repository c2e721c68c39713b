import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AddressPolicy } from '../domain/address-policy.js';

export type Resolved = { address: string; family: 4 | 6 } | { refused: string };

/** Resolves a host (an IP literal is its own answer). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = async (host) => {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  return lookup(host, { all: true, verbatim: true });
};

/**
 * Resolves `host` once and judges every address it resolved to: one refused address refuses the
 * host (a name that answers both a public and a private address is not trusted with either). The
 * address returned is the one the caller must connect to, so what was checked is what is reached.
 */
export async function resolveAllowed(
  host: string,
  policy: AddressPolicy,
  resolver: Resolver = systemResolver,
): Promise<Resolved> {
  let answers;
  try {
    answers = await resolver(host);
  } catch {
    return { refused: `${host} does not resolve` };
  }
  if (!answers.length) return { refused: `${host} does not resolve` };
  for (const a of answers) {
    const why = policy.refusal(a.address);
    if (why) return { refused: `${host} resolves to a ${why} address, which webhooks may not reach` };
  }
  const first = answers[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
