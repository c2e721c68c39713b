import { endpointInvalid } from './errors.js';

/** The checks a URL passes before any resolution: http(s), a host, no credentials, at most 2000 characters. */
export function parseEndpointUrl(raw: string): URL {
  if (raw.length > 2000) throw endpointInvalid('url', 'must be at most 2000 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw endpointInvalid('url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw endpointInvalid('url', 'must use http or https');
  if (!url.hostname) throw endpointInvalid('url', 'must name a host');
  if (url.username || url.password) throw endpointInvalid('url', 'must not carry credentials');
  url.hash = '';
  return url;
}

/** The host as DNS and net.isIP take it: IPv6 literals without their brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');
