import type { Mail } from '@signet/kit';
import type { AttemptOutcome } from '../delivery/http-sender.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** To the endpoint's owner when it has failed every attempt for too long and is disabled. */
export function endpointDisabledMail(m: {
  to: string;
  url: string;
  endpointId: string;
  since: Date;
  lastResult: AttemptOutcome;
}): Mail {
  const last = m.lastResult.status ? `HTTP ${m.lastResult.status}` : m.lastResult.result.replace('_', ' ');
  const since = m.since.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const text = [
    `Signet could not deliver any webhook to ${m.url} since ${since} (last: ${last}),`,
    `so the endpoint ${m.endpointId} is disabled and receives no further events.`,
    '',
    'Fix the receiver, enable the endpoint again (PATCH /api/webhook-endpoints/{id} with {"enabled": true})',
    'and redeliver what it missed from its delivery log (GET /api/webhook-endpoints/{id}/deliveries).',
  ].join('\n');
  const html = `<p>Signet could not deliver any webhook to <code>${escape(m.url)}</code> since ${escape(since)} (last: ${escape(last)}), so the endpoint <code>${escape(m.endpointId)}</code> is disabled and receives no further events.</p><p>Fix the receiver, enable the endpoint again and redeliver what it missed from its delivery log.</p>`;
  return { to: m.to, subject: 'Signet: a webhook endpoint was disabled', text, html };
}
