/**
 * The kit's gRPC server advertises the larger HTTP/2 receive windows (grpc-window.ts) to a client on
 * loopback: the stream window in its SETTINGS, the connection window by a WINDOW_UPDATE. Both are set
 * through grpc-js internals, so this fails when a grpc-js upgrade moves them.
 */
import { connect } from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { createGrpcServer } from './grpc.js';
import { RECEIVE_WINDOW } from './grpc-window.js';

describe('gRPC server receive windows', () => {
  const stops: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
  });

  it('advertises the stream window and opens the connection window', async () => {
    const grpc = createGrpcServer(async () => true);
    const port = await grpc.listen('127.0.0.1:0');
    stops.push(() => grpc.shutdown(1_000));
    const session = connect(`http://127.0.0.1:${port}`);
    stops.push(() => void session.destroy());
    await new Promise<void>((resolve, reject) => {
      session.once('remoteSettings', () => resolve());
      session.once('error', reject);
    });
    expect(session.remoteSettings.initialWindowSize).toBe(RECEIVE_WINDOW.stream);
    // The connection window arrives as a WINDOW_UPDATE right after the settings.
    for (let i = 0; i < 50 && session.state.remoteWindowSize! < RECEIVE_WINDOW.connection; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(session.state.remoteWindowSize).toBe(RECEIVE_WINDOW.connection);
  });
});
