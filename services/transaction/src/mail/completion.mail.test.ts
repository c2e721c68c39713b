import { describe, expect, it } from 'vitest';
import { completionMail } from './completion.mail.js';

const base = {
  to: 'ada@example.com',
  orgName: 'Acme',
  documentName: 'NDA.pdf',
  reference: 'ACM-TX-00000001',
  downloadUrl: 'http://x/api/downloads/t',
  expiresAt: new Date('2026-12-01T00:00:00Z'),
  forSender: false,
};

describe('completionMail', () => {
  it('says TEST in the subject and first in the body of a test-mode transaction, and nothing of it otherwise', () => {
    const t = completionMail({ ...base, test: true });
    expect(t.subject).toBe('[TEST] Completed: "NDA.pdf" is signed (ACM-TX-00000001)');
    expect(t.text).toMatch(/^TEST: this is a test-mode transaction; no signing ceremony ran/);
    expect(t.html).toContain('TEST: this is a test-mode transaction');
    expect(t.text).toContain(base.downloadUrl);
    const live = completionMail(base);
    expect(live.subject).toBe('Completed: "NDA.pdf" is signed (ACM-TX-00000001)');
    expect(`${live.text}${live.html}`).not.toContain('TEST');
  });
});
