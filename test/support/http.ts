/** One HTTP call to a Signet endpoint as the e2e tests make it: JSON or multipart in, parsed JSON (or text) out. */
import { multipart, type Part } from '../fixtures/ceremony-media.js';

export type Reply = { status: number; body: any; headers: Headers; text: string };

export async function send(
  base: string,
  method: string,
  path: string,
  init: {
    json?: unknown;
    parts?: Part[];
    /** a raw body, sent with its content type */
    raw?: { data: Buffer; contentType: string };
    headers?: Record<string, string>;
    apiKey?: string;
    token?: string;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.apiKey) headers['x-api-key'] = init.apiKey;
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  // Built per attempt: a multipart body is a stream, read once.
  const request = (extra: Record<string, string> = {}): RequestInit => {
    const h = { ...headers, ...extra };
    let body: RequestInit['body'];
    if (init.json !== undefined) {
      h['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.raw) {
      h['content-type'] = init.raw.contentType;
      body = init.raw.data as unknown as RequestInit['body'];
    } else if (init.parts) {
      const mp = multipart(init.parts);
      h['content-type'] = mp.contentType;
      body = mp.body as unknown as RequestInit['body'];
    }
    return { method, headers: h, body, duplex: 'half' } as RequestInit;
  };
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, request());
  } catch (err) {
    // A pooled keep-alive socket the server closed as it was reused (its idle timeout): the request
    // never reached a handler, so it is sent once more on a fresh connection.
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    res = await fetch(`${base}${path}`, request({ connection: 'close' }));
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}
