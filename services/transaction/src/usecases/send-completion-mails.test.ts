import { describe, expect, it } from 'vitest';
import { completionRecipients } from './send-completion-mails.js';

describe('who gets the completion mail', () => {
  it('every signer, every viewer and the sender, one mail per address', () => {
    const r = completionRecipients({
      signers: [{ email: 'ada@example.com' }, { email: 'Bob@Example.com' }] as never,
      viewers: [{ email: 'bob@example.com' }, { email: 'carol@example.com' }],
      sender_email: 'ada@example.com',
    });
    expect(r).toEqual([
      { id: 'signer:0', email: 'ada@example.com', forSender: false },
      { id: 'signer:1', email: 'Bob@Example.com', forSender: false },
      { id: 'viewer:1', email: 'carol@example.com', forSender: false },
    ]);
  });

  it('the sender when no signer has that address; nobody without an address', () => {
    const r = completionRecipients({
      signers: [{ email: 'ada@example.com' }, { email: '' }] as never,
      sender_email: 'boss@example.com',
    });
    expect(r.map((x) => x.id)).toEqual(['signer:0', 'sender']);
    expect(r[1]!.forSender).toBe(true);
  });
});
