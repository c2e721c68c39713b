/**
 * The kit's mailer against a real Mailpit, through a TCP relay that counts connections: messages sent
 * one after another share pooled connections instead of opening one each, and every one arrives.
 */
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMailer } from '../src/index.js';

describe('createMailer (real Mailpit)', () => {
  const infra = inject('infra');
  let relay: Server;
  let relayPort = 0;
  let connections = 0;

  beforeAll(async () => {
    const smtp = new URL(infra.SMTP_URL);
    relay = createServer((client) => {
      connections++;
      const upstream = createConnection(Number(smtp.port), smtp.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const addr = relay.address();
    relayPort = typeof addr === 'object' && addr ? addr.port : 0;
  });
  afterAll(async () => {
    await new Promise((r) => relay.close(r));
  });

  it('sends 20 messages in turn over pooled connections, and each arrives', async () => {
    const mailer = createMailer(`smtp://127.0.0.1:${relayPort}`, 'Signet <no-reply@signet.test>');
    const tag = randomBytes(4).toString('hex');
    try {
      for (let i = 0; i < 20; i++)
        await mailer.send({ to: `pool-${tag}@example.com`, subject: `pooled ${i}`, text: `body ${i}`, html: `<p>body ${i}</p>` });
    } finally {
      mailer.close();
    }
    expect(connections).toBeGreaterThan(0);
    expect(connections).toBeLessThanOrEqual(5);
    const res = await fetch(`${infra.MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"pool-${tag}@example.com"`)}`);
    const found = (await res.json()) as { messages_count?: number; total?: number; messages?: unknown[] };
    expect(found.messages?.length).toBe(20);
  });

  it('opens a connection per message when the URL says pool=false', async () => {
    const before = connections;
    const mailer = createMailer(`smtp://127.0.0.1:${relayPort}?pool=false`, 'Signet <no-reply@signet.test>');
    try {
      for (let i = 0; i < 3; i++)
        await mailer.send({ to: 'nopool@example.com', subject: `single ${i}`, text: 'x', html: '<p>x</p>' });
    } finally {
      mailer.close();
    }
    expect(connections - before).toBe(3);
  });
});
