import { status, type sendUnaryData, type ServerReadableStream, type ServiceError } from '@grpc/grpc-js';
import { toServiceError, type Metrics } from '@signet/kit';
import type { ceremonyV1 } from '@signet/proto';
import type { CeremonyDeps } from '../usecases/deps.js';
import { submitCapture, type CapturePart } from '../usecases/submit-capture.js';

type Call = ServerReadableStream<ceremonyV1.CaptureChunk, ceremonyV1.CaptureReceipt>;

/** A capture chunk as the use case reads it. */
function partIn(chunk: ceremonyV1.CaptureChunk): CapturePart {
  const p = chunk.part;
  if (p?.$case === 'begin')
    return {
      kind: 'begin',
      begin: { token: p.value.token, nonce: p.value.nonce, live: p.value.live, ip: p.value.ip, userAgent: p.value.userAgent },
    };
  if (p?.$case === 'video' || p?.$case === 'frame') return { kind: p.$case, data: p.value };
  return { kind: 'empty' };
}

/** The client stream as an iterator of capture parts, read only as fast as the use case asks. */
function partsOf(call: Call): AsyncIterator<CapturePart> {
  const iter = call[Symbol.asyncIterator]() as AsyncIterator<ceremonyV1.CaptureChunk>;
  return {
    async next() {
      const n = await iter.next();
      return n.done ? { done: true, value: undefined } : { done: false, value: partIn(n.value) };
    },
  };
}

/**
 * Client-streaming SubmitCapture (a raw handler: the kit's unary wrapper does not apply, so the RPC
 * duration is measured here). The use case reads the stream; on an error the stream stops being
 * read, so the client sees the status at once.
 */
export function captureHandler(deps: CeremonyDeps, rpc: Pick<Metrics, 'grpcServerDuration'>) {
  return (call: Call, callback: sendUnaryData<ceremonyV1.CaptureReceipt>) => {
    const end = rpc.grpcServerDuration.startTimer({ method: 'signet.ceremony.v1.CeremonyService/SubmitCapture' });
    submitCapture(deps, partsOf(call), () => call.cancelled).then(
      (res) => {
        end({ code: 'OK' });
        callback(null, res);
      },
      (err: unknown) => {
        const se = toServiceError(err);
        end({ code: status[se.code ?? status.INTERNAL] });
        call.removeAllListeners('data');
        callback(se as ServiceError, null);
      },
    );
  };
}
