import { describe, expect, it } from 'vitest';
import { SIGNER_NOTICES } from '../usecases/notify-sender.js';
import { senderNotificationMail, type SenderEvent } from './sender-notification.mail.js';

const base = {
  to: 'sender@example.com',
  orgName: 'Smith & <Jones>',
  documentName: 'Lease "2026".pdf',
  reference: 'SIG-TX-00000042',
  signer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  dashboardUrl: 'https://signet.example/app/transactions/42',
};

describe('the sender notification mail', () => {
  it.each<[SenderEvent, RegExp]>([
    ['signer_passed', /Ada Lovelace signed "Lease "2026"\.pdf"/],
    ['signer_failed', /Ada Lovelace could not be verified/],
    ['signer_declined', /Ada Lovelace declined to sign/],
    ['expired', /expired before it was signed/],
  ])('%s: names the organisation, document and reference, in text and escaped HTML', (event, subject) => {
    const m = senderNotificationMail({ ...base, event, reason: 'too expensive' });
    expect(m.to).toBe('sender@example.com');
    expect(m.subject).toMatch(/^Smith & <Jones>: /);
    expect(m.subject).toMatch(subject);
    expect(m.text).toContain('Smith & <Jones>');
    expect(m.text).toContain('SIG-TX-00000042');
    expect(m.text).toContain(base.dashboardUrl);
    expect(m.html).toContain('Smith &#38; &#60;Jones&#62;');
    expect(m.html).not.toContain('<Jones>');
    expect(m.text.includes('Reason given: too expensive')).toBe(event === 'signer_declined');
  });
  it('a signed PDF that can never be sealed: the sender reads that the certificate stands, why, and what to do', () => {
    const m = senderNotificationMail({
      ...base,
      signer: undefined,
      event: 'sealing_failed',
      reason: 'the document cannot be read as a PDF by the sealer (damaged, encrypted or unsupported)',
    });
    expect(m.subject).toBe('Smith & <Jones>: The signed PDF of "Lease "2026".pdf" could not be produced');
    expect(m.text).toContain('its certificate is issued and verifiable');
    expect(m.text).toContain('Why: the document cannot be read as a PDF by the sealer');
    expect(m.text).toContain('Send the document again as an unencrypted, undamaged PDF');
    expect(m.text).toContain('SIG-TX-00000042');
  });
  it('a decline without a reason says none was given; no organisation reads as a Signet user', () => {
    const m = senderNotificationMail({ ...base, orgName: '', event: 'signer_declined', reason: '' });
    expect(m.text).toContain('No reason was given.');
    expect(m.subject).toMatch(/^A Signet user: /);
  });
  it('the sender hears of a signer passing, failing or declining, and of nothing else a signer does', () => {
    expect(SIGNER_NOTICES).toEqual({ passed: 'signer_passed', failed: 'signer_failed', declined: 'signer_declined' });
  });
});
