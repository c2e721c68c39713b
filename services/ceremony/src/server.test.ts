import { describe, expect, it } from 'vitest';
import type { Metrics } from '@signet/kit';
import { ceremonyV1 } from '@signet/proto';
import { ceremonyHandlers } from './server.js';
import type { CeremonyDeps } from './usecases/deps.js';

describe('ceremonyHandlers', () => {
  it('has exactly one handler for every RPC of CeremonyService', () => {
    // Building the handlers touches no dependency, so none is needed here.
    const handlers = ceremonyHandlers({} as CeremonyDeps, {} as Metrics);
    const rpcs = Object.keys(ceremonyV1.CeremonyServiceService).sort();
    expect(Object.keys(handlers).sort()).toEqual(rpcs);
  });
});
