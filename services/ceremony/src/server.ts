import type { Metrics } from '@signet/kit';
import { captureHandler } from './grpc/capture.handler.js';
import { challengeHandlers } from './grpc/challenge.handler.js';
import { consentHandlers } from './grpc/consent.handler.js';
import { forensicHandlers } from './grpc/forensic.handler.js';
import { webauthnHandlers } from './grpc/webauthn.handler.js';
import type { CeremonyDeps } from './usecases/deps.js';

export type CeremonyHandlers = ReturnType<typeof consentHandlers> &
  ReturnType<typeof challengeHandlers> &
  ReturnType<typeof webauthnHandlers> &
  ReturnType<typeof forensicHandlers> & { submitCapture: ReturnType<typeof captureHandler> };

/** The RPCs served raw (client streaming), outside the kit's unary wrapper. */
export const RAW_RPCS = ['submitCapture'];

/**
 * Every RPC of `signet.ceremony.v1.CeremonyService`, by flow. No side effects: the caller (app.ts)
 * opens the connections and registers the result with the gRPC server.
 */
export function ceremonyHandlers(deps: CeremonyDeps, rpc: Pick<Metrics, 'grpcServerDuration'>): CeremonyHandlers {
  return {
    ...consentHandlers(deps),
    ...challengeHandlers(deps),
    ...webauthnHandlers(deps),
    ...forensicHandlers(deps),
    submitCapture: captureHandler(deps, rpc),
  };
}
