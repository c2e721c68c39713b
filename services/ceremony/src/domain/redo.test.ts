import { describe, expect, it } from 'vitest';
import { redoSteps } from './redo.js';

describe('redo steps', () => {
  it('names each step once, in ceremony order, and never a score', () => {
    expect(redoSteps(['words', 'reference_match', 'sequence', 'identity_consistency'])).toEqual(['face', 'action', 'words']);
    expect(redoSteps(['light'])).toEqual(['light']);
    expect(redoSteps(['challenge_redraws'])).toEqual(['challenge']);
    expect(redoSteps(['something_new'])).toEqual([]);
  });
});
