import { describe, expect, it } from 'vitest';
import { identityV1 } from '@signet/proto';
import { identityHandlers } from './server.js';
import type { IdentityDeps } from './usecases/deps.js';

describe('identityHandlers', () => {
  it('has exactly one handler for every RPC of IdentityService', () => {
    // Building the handlers touches no dependency, so none is needed here.
    const handlers = identityHandlers({} as IdentityDeps);
    const rpcs = Object.keys(identityV1.IdentityServiceService).sort();
    expect(Object.keys(handlers).sort()).toEqual(rpcs);
  });
});
