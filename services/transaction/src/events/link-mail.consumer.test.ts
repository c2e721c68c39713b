import { describe, expect, it } from 'vitest';
import { createLogger, Metrics, type DeliveredEvent, type Mail, type Mailer } from '@signet/kit';
import { events } from '@signet/proto';
import { transactionMetrics } from '../metrics.js';
import {
  linkMailId,
  type LinkMailKey,
  type TransactionRecord,
  type TransactionRepository,
} from '../store/transaction.repository.js';
import { linkMailConsumer } from './link-mail.consumer.js';
import { linkMailRequest } from './transaction.publisher.js';

const signer = (index: number, state = 'created') => ({
  index,
  name: `s${index}`,
  email: `s${index}@example.com`,
  token: `token-${index}-${'x'.repeat(30)}`,
  state,
});

function setup(opts: { status?: string; states?: string[]; fail?: (m: Mail) => Error | undefined } = {}) {
  const rec = {
    _id: 7,
    reference: 'SIG-TX-00000007',
    status: opts.status ?? 'created',
    issuer_name: 'Acme',
    document_name: 'c.pdf',
    signers: (opts.states ?? ['created', 'created']).map((s, i) => signer(i, s)),
  } as unknown as TransactionRecord;
  const records = new Map<string, string>();
  const repo = {
    findById: async (id: number) => (id === rec._id ? rec : null),
    linkMailResult: async (k: LinkMailKey) => records.get(linkMailId(k)) ?? null,
    recordLinkMail: async (k: LinkMailKey, result: string) => void records.set(linkMailId(k), result),
  } as unknown as TransactionRepository;
  const sent: Mail[] = [];
  const mailer = {
    send: async (m: Mail) => {
      const err = opts.fail?.(m);
      if (err) throw err;
      sent.push(m);
    },
  } as unknown as Mailer;
  const handle = linkMailConsumer({
    repo,
    mailer,
    tm: transactionMetrics(new Metrics('t')),
    logger: createLogger('t', 'silent'),
    cfg: { PUBLIC_BASE_URL: 'http://x.test/' },
  });
  const deliver = (
    r: Pick<TransactionRecord, '_id' | 'reference'>,
    kind: 'invite' | 'reminder',
    round: number,
    idx: number[],
  ) => {
    const entry = linkMailRequest(r, kind, round, idx);
    const ev: DeliveredEvent = {
      subject: events.linksRequested.subject,
      data: entry.payload,
      eventId: entry.event_id,
      redelivered: false,
      deliveryCount: 1,
    };
    return handle(ev);
  };
  return { rec, records, sent, deliver };
}

describe('link-mail consumer', () => {
  it('mails each signer once; a redelivery finds the records and sends nothing', async () => {
    const t = setup();
    await t.deliver(t.rec, 'invite', 0, [0, 1]);
    await t.deliver(t.rec, 'invite', 0, [0, 1]);
    expect(t.sent.map((m) => m.to)).toEqual(['s0@example.com', 's1@example.com']);
    expect(t.sent[0]!.text).toContain(`http://x.test/sign/${t.rec.signers[0]!.token}`);
    expect([...t.records.entries()]).toEqual([
      ['7:0:invite:0', 'sent'],
      ['7:1:invite:0', 'sent'],
    ]);
    // A reminder is another mail (another round).
    await t.deliver(t.rec, 'reminder', 3, [1]);
    expect(t.sent).toHaveLength(3);
    expect(t.sent[2]!.subject).toMatch(/^Reminder: /);
  });

  it('a failed send throws for redelivery, and the retry mails only the signers not yet recorded', async () => {
    let down = true;
    const t = setup({ fail: (m) => (down && m.to === 's1@example.com' ? new Error('connection refused') : undefined) });
    await expect(t.deliver(t.rec, 'invite', 0, [0, 1])).rejects.toThrow(/signer 1 failed/);
    expect(t.sent.map((m) => m.to)).toEqual(['s0@example.com']);
    down = false;
    await t.deliver(t.rec, 'invite', 0, [0, 1]);
    expect(t.sent.map((m) => m.to)).toEqual(['s0@example.com', 's1@example.com']);
  });

  it('an SMTP 5xx is recorded as rejected and not retried', async () => {
    const t = setup({ fail: () => Object.assign(new Error('550 no such user'), { responseCode: 550 }) });
    await t.deliver(t.rec, 'invite', 0, [0]);
    expect(t.records.get('7:0:invite:0')).toBe('rejected');
  });

  it('does not mail for another database record with the same id, a cancelled transaction or a signer who finished', async () => {
    const t = setup();
    await t.deliver({ _id: 7, reference: 'SIG-TX-99999999' }, 'invite', 0, [0, 1]);
    await t.deliver({ _id: 8, reference: 'SIG-TX-00000007' }, 'invite', 0, [0, 1]);
    expect(t.sent).toHaveLength(0);
    const c = setup({ status: 'cancelled' });
    await c.deliver(c.rec, 'invite', 0, [0, 1]);
    expect(c.sent).toHaveLength(0);
    const f = setup({ status: 'capture_accepted', states: ['passed', 'created'] });
    await f.deliver(f.rec, 'reminder', 2, [0, 1]);
    expect(f.sent.map((m) => m.to)).toEqual(['s1@example.com']);
  });
});
