import type { Server } from '@grpc/grpc-js';
import { createGrpcServer } from './grpc.js';
import { createOpsApp, readiness, type ReadinessCheck } from './http.js';
import { closeServer, listen } from './lifecycle.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/**
 * The listening part every gRPC service shares: the gRPC server (with health following the
 * readiness checks) on grpcPort and the ops server (/metrics, /healthz, /readyz) on opsPort.
 */
export async function serveGrpc(opts: {
  name: string;
  logger: Logger;
  metrics: Metrics;
  grpcPort: number;
  opsPort: number;
  checks: ReadinessCheck[];
  register: (server: Server) => void;
}) {
  const grpc = createGrpcServer(async () => (await readiness(opts.checks)).ready);
  opts.register(grpc.server);
  const grpcPort = await grpc.listen(`0.0.0.0:${opts.grpcPort}`);
  const ops = await listen(createOpsApp(opts.metrics, opts.checks), opts.opsPort);
  opts.logger.info({ grpc_port: grpcPort, ops_port: ops.port }, `${opts.name} listening`);
  return {
    grpcPort,
    opsPort: ops.port,
    /** Stops taking calls and lets in-flight ones finish. */
    async stop() {
      await grpc.shutdown();
      await closeServer(ops.server);
    },
  };
}
