/**
 * Moved to test/support/ceremony-helpers.ts: service integration tests import no end-to-end code.
 * Kept only until services/ceremony/test/orphan-sweep.int.test.ts imports the new path.
 */
export * from '../support/ceremony-helpers.js';
