import { describe, expect, it } from 'vitest';
import { auditContextOf } from '../grpc/audit-context.js';
import type { AuditRecord } from '../store/audit.repository.js';
import type { UserRecord } from '../store/user.repository.js';
import { recordAuditEvent } from './record-audit-event.js';

function setup() {
  const appended: Omit<AuditRecord, '_id'>[] = [];
  const counted: string[] = [];
  const member = { _id: 'm1', email: 'm@example.test', org_id: 'org1' } as UserRecord;
  const deps = {
    now: () => Date.parse('2026-11-29T05:00:00Z'),
    securityMetrics: { audit: { inc: (l: { action?: string }) => void counted.push(l.action ?? '') } } as never,
    users: { byId: async (id: string) => (id === 'm1' ? member : null) },
    audit: { append: async (e: Omit<AuditRecord, '_id'>) => void appended.push(e) },
  };
  return { deps, appended, counted };
}
const client = { ip: '192.0.2.1', userAgent: 'UA' };

describe('recordAuditEvent (the gateway records exports)', () => {
  it('appends the entry to the member’s organisation’s log, counted by action', async () => {
    const t = setup();
    await recordAuditEvent(t.deps, {
      userId: 'm1',
      action: 'transactions.exported',
      target: '',
      details: { format: 'csv' },
      client,
    });
    expect(t.appended).toEqual([
      expect.objectContaining({
        account_id: 'org1',
        action: 'transactions.exported',
        actor_id: 'm1',
        actor_email: 'm@example.test',
        target: '',
        ip: '192.0.2.1',
        user_agent: 'UA',
        details: { format: 'csv' },
      }),
    ]);
    expect(t.counted).toEqual(['transactions.exported']);
  });

  it('refuses the actions identity writes itself, oversized details and unknown members; appends nothing', async () => {
    const t = setup();
    const base = { userId: 'm1', action: 'audit_log.exported', target: '', details: {}, client };
    for (const bad of [
      { ...base, action: 'api_key.created' },
      { ...base, action: 'member.removed' },
      // From the transaction service's own events only: the gateway cannot add one.
      { ...base, action: 'transaction.deleted' },
      { ...base, action: 'transaction.biometrics_erased' },
      { ...base, action: 'anything.else' },
      { ...base, details: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) },
      { ...base, target: 'x'.repeat(201) },
      { ...base, details: { format: 'x'.repeat(201) } },
    ])
      await expect(recordAuditEvent(t.deps, bad)).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(recordAuditEvent(t.deps, { ...base, userId: 'nobody' })).rejects.toMatchObject({ kind: 'not_found' });
    expect(t.appended).toEqual([]);
  });
});

describe('auditContextOf (the gateway’s call metadata)', () => {
  const call = (m: Record<string, string>) => ({ metadata: { get: (k: string) => (k in m ? [m[k]] : []) } });

  it('reads the client and the acting member; the user agent is URI-decoded', () => {
    expect(
      auditContextOf(
        call({
          'x-signet-client-ip': '203.0.113.5',
          'x-signet-client-ua': encodeURIComponent('Ünï/1 (x)'),
          'x-signet-actor': 'm1',
        }),
      ),
    ).toEqual({ client: { ip: '203.0.113.5', userAgent: 'Ünï/1 (x)' }, actorId: 'm1' });
  });

  it('is empty without metadata, and keeps a value that is not URI-encoded as sent', () => {
    expect(auditContextOf(undefined)).toEqual({ client: { ip: '', userAgent: '' }, actorId: '' });
    expect(auditContextOf(call({ 'x-signet-client-ua': '100%' })).client.userAgent).toBe('100%');
  });
});
