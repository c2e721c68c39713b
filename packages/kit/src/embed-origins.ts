/**
 * The origins an account allows to frame its signing pages (embedded signing, issue 34 item 6). The
 * gateway builds the page's `frame-ancestors` from them and the page posts its events to them only,
 * so each must be exactly an origin as a browser serializes it: `scheme://host[:port]`, lower case,
 * no default port, no path, query, fragment, credentials or wildcard. HTTPS only, except plain HTTP
 * on the loopback names (localhost, 127.0.0.1, [::1]) for development. The gateway and identity both
 * check with this one function.
 */
export const EMBED_ORIGINS_MAX = 10;
const ORIGIN_MAX_LENGTH = 200;
/** A DNS name (punycode), an IPv4 address or a bracketed IPv6 address: no wildcard or other character a CSP source would read. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why `value` is not an allowed embedding origin, or undefined when it is one. */
export function embedOriginProblem(value: string): string | undefined {
  const example = 'must be an origin such as https://app.example.com (scheme, host and optional port only)';
  if (value.length === 0 || value.length > ORIGIN_MAX_LENGTH) return example;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return example;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return example;
  if (url.origin !== value || !HOST.test(url.hostname)) return example;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    return 'must use https (http only for localhost, 127.0.0.1 and [::1])';
  return undefined;
}

/**
 * The list as stored: each checked (the first problem is thrown by `fail` with its position), at most
 * EMBED_ORIGINS_MAX, duplicates dropped, in the given order.
 */
export function checkEmbedOrigins(values: readonly string[], fail: (message: string) => Error): string[] {
  if (values.length > EMBED_ORIGINS_MAX) throw fail(`origins: at most ${EMBED_ORIGINS_MAX}`);
  values.forEach((v, i) => {
    const problem = embedOriginProblem(v);
    if (problem) throw fail(`origins[${i}]: ${problem}`);
  });
  return [...new Set(values)];
}

/** The Content-Security-Policy `frame-ancestors` value for a list (checked as above): 'none' when empty. */
export const frameAncestors = (origins: readonly string[]): string => (origins.length === 0 ? "'none'" : origins.join(' '));
