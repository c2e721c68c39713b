import type { Response } from 'express';
import { status } from '@grpc/grpc-js';
import { RpcError, type ServerStream } from '@signet/kit';
import { HttpError } from './errors.js';

/** Resolves when the response can take more, or is gone. */
const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

/**
 * Streams a PDF that a service sends in chunks to the HTTP response, with backpressure. The headers
 * go with the first chunk (its `size` is the whole length), so an error before it still gets the
 * usual JSON answer: NOT_FOUND → 404 with `notFound(err)`, any other status through the one error
 * mapping. After the first chunk an error can only cut the response. A client that goes away cancels
 * the call.
 */
export async function pipePdfStream<C extends { size: number | bigint; data: Uint8Array }>(
  res: Response,
  stream: ServerStream<C>,
  opts: { disposition: (first: C) => string; notFound: (err: RpcError) => string },
): Promise<void> {
  res.on('close', () => stream.cancel());
  let started = false;
  try {
    for await (const chunk of stream) {
      if (!started) {
        started = true;
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader('Content-Length', String(chunk.size));
        res.setHeader('Content-Disposition', opts.disposition(chunk));
        res.setHeader('Cache-Control', 'private, no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
      }
      if (chunk.data.length && !res.write(chunk.data)) await drained(res);
    }
  } catch (err) {
    if (started) return void res.destroy();
    if (err instanceof RpcError && err.code === status.CANCELLED) return; // the client went away
    if (err instanceof RpcError && err.code === status.NOT_FOUND) throw new HttpError(404, opts.notFound(err));
    throw err;
  }
  res.end();
}
