import { describe, expect, it } from 'vitest';
import { DomainError } from '@signet/kit';
import {
  applyDecline,
  applyExpire,
  applyReminderDue,
  initialTimers,
  lifecycleRequest,
  toRemind,
  type LifecycleDefaults,
  type Timers,
} from './lifecycle.js';
import { deriveStatus, newSigner, type Signer, type TxState } from './transaction.js';

const at = new Date('2026-01-01T00:00:00Z');
const sec = (n: number) => new Date(at.getTime() + n * 1000);
const defaults: LifecycleDefaults = {
  expiryMs: 30 * 86_400_000,
  maxExpiryMs: 180 * 86_400_000,
  reminderFirstMs: 3 * 86_400_000,
  reminderEveryMs: 3 * 86_400_000,
  reminderMax: 3,
};
const signer = (index: number, over: Partial<Signer> = {}): Signer => ({
  ...newSigner(index, `s${index}`, `s${index}@example.com`, `t${index}`, 3, { mode: 'liveness' }),
  ...over,
});
const timers = (over: Partial<Timers> = {}): Timers => ({
  expires_at: sec(100),
  reminder_due_at: sec(10),
  reminder_every_ms: 10_000,
  reminder_max: 3,
  reminders_sent: 0,
  ...over,
});
const tx = (signers: Signer[], over: Partial<TxState> = {}): TxState => ({
  status: deriveStatus(signers, false),
  signers,
  certificate_issued: false,
  reference: 'SIG-TX-00000001',
  timers: timers(),
  ...over,
});
const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? `${err.kind}:${err.reason ?? ''}:${err.message}` : String(err);
  }
  return 'no error';
};

describe('initialTimers', () => {
  it('takes the defaults: expiry 30 days on, first reminder 3 days on', () => {
    expect(initialTimers(at, {}, defaults)).toEqual({
      expires_at: new Date(at.getTime() + 30 * 86_400_000),
      reminder_due_at: new Date(at.getTime() + 3 * 86_400_000),
      reminder_every_ms: 3 * 86_400_000,
      reminder_max: 3,
      reminders_sent: 0,
    });
  });
  it('refuses an expiry in the past, now, or beyond the maximum', () => {
    expect(reasonOf(() => initialTimers(at, { expiresAt: sec(-1) }, defaults))).toMatch(/expires_at: must be in the future/);
    expect(reasonOf(() => initialTimers(at, { expiresAt: at }, defaults))).toMatch(/in the future/);
    expect(reasonOf(() => initialTimers(at, { expiresAt: sec(181 * 86_400) }, defaults))).toMatch(/at most 180 days/);
    expect(initialTimers(at, { expiresAt: sec(180 * 86_400) }, defaults).expires_at).toEqual(sec(180 * 86_400));
  });
  it('has no reminder when none are asked for or the first would come after the expiry', () => {
    expect(initialTimers(at, { reminderMax: 0 }, defaults).reminder_due_at).toBeNull();
    expect(initialTimers(at, { expiresAt: sec(60), reminderFirstMs: 60_000 }, defaults).reminder_due_at).toBeNull();
    expect(reasonOf(() => initialTimers(at, { reminderMax: 21 }, defaults))).toMatch(/reminder_max/);
  });
  it('reads the creation fields: RFC 3339 only, 0 the default, reminder_max -1 none', () => {
    expect(lifecycleRequest({ expiresAt: '', reminderFirstAfterSeconds: 0, reminderEverySeconds: 0, reminderMax: 0 })).toEqual(
      {},
    );
    expect(
      lifecycleRequest(
        {
          expiresAt: '2026-02-01T00:00:00Z',
          reminderFirstAfterSeconds: 5,
          reminderEverySeconds: 7,
          reminderMax: -1,
        },
        1,
      ),
    ).toEqual({ expiresAt: new Date('2026-02-01T00:00:00Z'), reminderFirstMs: 5000, reminderEveryMs: 7000, reminderMax: 0 });
    const bad = { reminderFirstAfterSeconds: 0, reminderEverySeconds: 0, reminderMax: 0 };
    for (const v of ['tomorrow', '2026-02-01', '2026-02-30T00:00:00Z x'])
      expect(reasonOf(() => lifecycleRequest({ ...bad, expiresAt: v }))).toMatch(/expires_at/);
  });
  it('refuses a reminder interval under the minimum: an hour unless the operator sets another', () => {
    const ask = (every: number, min?: number) =>
      reasonOf(() =>
        lifecycleRequest({ expiresAt: '', reminderFirstAfterSeconds: 0, reminderEverySeconds: every, reminderMax: 0 }, min),
      );
    expect(ask(1)).toMatch(/reminder_every_seconds.*at least 3600 \(1 hour\)/);
    expect(ask(3_599)).toMatch(/reminder_every_seconds/);
    expect(
      lifecycleRequest({ expiresAt: '', reminderFirstAfterSeconds: 0, reminderEverySeconds: 3_600, reminderMax: 0 }),
    ).toEqual({
      reminderEveryMs: 3_600_000,
    });
    expect(ask(1, 2)).toMatch(/at least 2 \(2 seconds\)/);
    expect(lifecycleRequest({ expiresAt: '', reminderFirstAfterSeconds: 0, reminderEverySeconds: 2, reminderMax: 0 }, 2)).toEqual(
      {
        reminderEveryMs: 2000,
      },
    );
  });
});

describe('applyDecline', () => {
  it('a pending signer declines: signer and transaction declined, who and why logged, the event carries the reason', () => {
    const c = applyDecline(tx([signer(0), signer(1, { state: 'passed' })]), 0, '  wrong salary ', at);
    expect(c.status).toBe('declined');
    expect(c.signers[0]).toMatchObject({ state: 'declined', decline_reason: 'wrong salary' });
    expect(c.signers[1]!.state).toBe('passed');
    expect(c.log).toEqual([
      { type: 'signer_declined', at, actor: 'signer:0', detail: 's0 <s0@example.com> declined to sign: wrong salary' },
    ]);
    expect(c.signerChanged).toEqual({ index: 0, from: 'created', to: 'declined', attempts_left: 3 });
    expect(c.declined).toEqual({ index: 0, reason: 'wrong salary' });
    expect(c.statusActor).toBe('signer:0');
  });
  it('from any pending signer state; a declined signer makes the status declined even beside a failed one', () => {
    for (const state of ['created', 'consent_accepted', 'capture_accepted'] as const)
      expect(applyDecline(tx([signer(0, { state })]), 0, '', at).status).toBe('declined');
    expect(deriveStatus([{ state: 'failed' }, { state: 'declined' }], false)).toBe('declined');
  });
  it('refuses a reason over 500 characters, a finished signer, an ended transaction', () => {
    expect(reasonOf(() => applyDecline(tx([signer(0)]), 0, 'x'.repeat(501), at))).toMatch(/invalid.*reason: must be at most 500/);
    expect(applyDecline(tx([signer(0)]), 0, 'x'.repeat(500), at).status).toBe('declined');
    expect(reasonOf(() => applyDecline(tx([signer(0, { state: 'passed' }), signer(1)]), 0, '', at))).toMatch(/SIGNER_FINISHED/);
    for (const status of ['cancelled', 'expired', 'declined', 'failed', 'ledger_issued'] as const)
      expect(reasonOf(() => applyDecline(tx([signer(0)], { status }), 0, '', at))).toMatch(/TRANSACTION_NOT_PENDING/);
  });
});

describe('applyExpire', () => {
  it('a pending transaction past expires_at becomes expired and owes no more reminders', () => {
    const c = applyExpire(tx([signer(0)]), sec(100));
    expect(c?.status).toBe('expired');
    expect(c?.log[0]).toMatchObject({ type: 'expired', actor: 'system' });
    expect(c?.timers).toEqual({ reminder_due_at: null });
  });
  it('not yet due, ended, or without an expiry → nothing', () => {
    expect(applyExpire(tx([signer(0)]), sec(99))).toBeNull();
    expect(applyExpire(tx([signer(0)], { status: 'cancelled' }), sec(200))).toBeNull();
    expect(applyExpire(tx([signer(0)], { timers: undefined }), sec(200))).toBeNull();
  });
});

describe('applyReminderDue', () => {
  it('reminds the signers who have not finished and schedules the next one', () => {
    const s = [
      signer(0, { state: 'passed' }),
      signer(1, { state: 'consent_accepted' }),
      signer(2),
      signer(3, { state: 'capture_accepted' }),
    ];
    const c = applyReminderDue(tx(s), sec(10));
    expect(c?.status).toBe(tx(s).status);
    expect(c?.reminder).toEqual({ at: sec(10), signerIndexes: [1, 2], automatic: true });
    expect(c?.timers).toEqual({ reminders_sent: 1, reminder_due_at: sec(20) });
    expect(c?.log[0]?.detail).toBe('reminder 1 of 3 to be sent to s1@example.com, s2@example.com');
  });
  it('stops after the last one, before the expiry, and when nobody is left to remind', () => {
    expect(applyReminderDue(tx([signer(0)], { timers: timers({ reminders_sent: 2 }) }), sec(10))?.timers).toEqual({
      reminders_sent: 3,
      reminder_due_at: null,
    });
    expect(
      applyReminderDue(tx([signer(0)], { timers: timers({ expires_at: sec(15) }) }), sec(10))?.timers?.reminder_due_at,
    ).toBeNull();
    const done = applyReminderDue(tx([signer(0, { state: 'passed' }), signer(1, { state: 'capture_accepted' })]), sec(10));
    expect(done?.reminder).toBeUndefined();
    expect(done?.log).toEqual([]);
    expect(done?.timers).toEqual({ reminders_sent: 0, reminder_due_at: null });
  });
  it('not due, ended, or expired → nothing', () => {
    expect(applyReminderDue(tx([signer(0)]), sec(9))).toBeNull();
    expect(applyReminderDue(tx([signer(0)], { status: 'declined' }), sec(10))).toBeNull();
    expect(applyReminderDue(tx([signer(0)], { timers: timers({ expires_at: sec(10) }) }), sec(10))).toBeNull();
    expect(applyReminderDue(tx([signer(0)], { timers: timers({ reminder_due_at: null }) }), sec(10))).toBeNull();
  });
  it('a signer whose order has not been released yet gets no reminder', () => {
    const s = [signer(0, { order: 1 }), signer(1, { order: 2 })];
    expect(toRemind(s).map((x) => x.index)).toEqual([0]);
  });
  it('a later order waiting on an earlier one keeps the schedule without a reminder, and gets it once released', () => {
    const waiting = [signer(0, { order: 1, state: 'capture_accepted' }), signer(1, { order: 2 })];
    const c = applyReminderDue(tx(waiting), sec(10));
    expect(c?.reminder).toBeUndefined();
    expect(c?.log).toEqual([]);
    expect(c?.timers).toEqual({ reminders_sent: 0, reminder_due_at: sec(20) });
    const released = [signer(0, { order: 1, state: 'passed' }), signer(1, { order: 2 })];
    const r = applyReminderDue(tx(released, { timers: timers({ reminder_due_at: sec(20) }) }), sec(20));
    expect(r?.reminder).toEqual({ at: sec(20), signerIndexes: [1], automatic: true });
    expect(r?.timers).toEqual({ reminders_sent: 1, reminder_due_at: sec(30) });
  });
  it('an earlier order still signing: only its signers are reminded, the later order not', () => {
    const s = [signer(0, { order: 1 }), signer(1, { order: 1, state: 'passed' }), signer(2, { order: 2 })];
    expect(applyReminderDue(tx(s), sec(10))?.reminder?.signerIndexes).toEqual([0]);
  });
});
