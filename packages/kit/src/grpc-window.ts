import type { Http2Server, Http2Session, ServerOptions } from 'node:http2';
import type { Server } from '@grpc/grpc-js';

/**
 * HTTP/2 receive windows of the kit's gRPC servers: how much a client may send on one stream, and on
 * one connection, before the server's WINDOW_UPDATE. Node's default is 64 KB for both, so a client
 * streaming a 200 MB document waits for a window update every 64 KB: measured on loopback, 256 KB
 * messages, 200 MB, the server spent 0.40–0.45 CPU-s and the client 0.41–0.46 at 64 KB, and 0.22–0.26
 * and 0.29–0.35 at 1 MB / 2 MB. A server that stops reading buffers at most one window per stream.
 */
export const RECEIVE_WINDOW = { stream: 1024 * 1024, connection: 2 * 1024 * 1024 };

type Internals = { commonServerOptions?: ServerOptions; http2Servers?: Map<Http2Server, unknown> };

/**
 * grpc-js 1.14 reads `grpc-node.flow_control_window` on the client only (grpc/grpc-node#3058 proposes
 * the server side, as in gRPC Java and Go). Until it is released, this sets the two values that change
 * would: the SETTINGS initial window of the HTTP/2 servers grpc-js creates at bind (before bindAsync),
 * and the connection window of each session (`attachSessions`, after the bind). Both are grpc-js
 * internals of the pinned version; grpc-window.test.ts fails if they stop taking effect.
 */
export function receiveWindow(server: Server, w = RECEIVE_WINDOW) {
  const internals = server as unknown as Internals;
  const opts = internals.commonServerOptions;
  if (opts) opts.settings = { ...opts.settings, initialWindowSize: w.stream };
  return {
    attachSessions() {
      for (const http2Server of internals.http2Servers?.keys() ?? [])
        http2Server.on('session', (session: Http2Session) => {
          try {
            session.setLocalWindowSize(w.connection);
          } catch {
            /* a session already closing */
          }
        });
    },
  };
}
