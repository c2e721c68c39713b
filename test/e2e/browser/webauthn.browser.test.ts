/**
 * WebAuthn on the signing page with Chromium's virtual authenticator (DevTools protocol): before
 * anything is recorded, the signer registers a credential over the challenge that commits to the
 * document and the ceremony nonce of the recording to come, the server verifies it, the live
 * recording streams that same challenge, and the capture is recorded with verification mode
 * `biometric+webauthn`. The gateway is addressed as `localhost`, a secure context for WebAuthn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { connectBus, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import type { Account } from '../../harness/accounts.js';
import { eventually, infra, startServices } from '../../harness/services.js';
import { findFaceImage, makeY4m } from '../../fixtures/ceremony-media.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../../support/ceremony-helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('WebAuthn on the signing page', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  let bus: Bus;
  let context: BrowserContext;
  const work = mkdtempSync(join(tmpdir(), 'signet-webauthn-'));

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    const y4m = makeY4m(work, findFaceImage(ROOT) ?? findFaceImage(join(ROOT, 'services/biometrics')));
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      host: 'localhost',
      env: { WEBAUTHN_RP_ID: 'localhost' },
    });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    bus = await connectBus(infra().NATS_URL, 'webauthn-browser-test');
    context = await launchChromium(work, { media: { y4m } });
  });
  afterAll(async () => {
    await context?.close();
    await bus?.nc.drain();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('registers a credential over the ceremony challenge and marks the capture biometric+webauthn', async () => {
    expect(tx.sign_url.startsWith('http://localhost:')).toBe(true);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = (await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })) as { authenticatorId: string };

    // The order of the page's calls: the confirmation must be verified before the live stream starts.
    const calls: string[] = [];
    page.on('request', (r) => {
      const m = /\/api\/sign\/[^/]+\/(webauthn\/options|webauthn\/verify|live(?:\/[^/]+\/(?:chunks\/\d+|finish))?)$/.exec(
        new URL(r.url()).pathname,
      );
      if (m) calls.push(m[1]!.replace(/live\/[^/]+\/chunks\/\d+/, 'chunk').replace(/live\/[^/]+\/finish/, 'finish'));
    });
    await page.goto(tx.sign_url);
    await page.waitForSelector('body[data-current="consent"]');
    await page.check('#c-agree');
    await page.click('#c-submit');
    await page.waitForSelector('body[data-current="camera"]');
    await page.click('#camera-allow');
    await page.waitForSelector('body[data-current="preview"]');
    await page.click('#start');
    // The device confirmation first, before anything is recorded: no live stream has started yet.
    await page.waitForSelector('body[data-current="webauthn"]', { timeout: 15_000 });
    expect(calls).toEqual([]);
    await page.click('#webauthn-use');
    // Then the live recording (its prompts revealed as it streams), then the upload.
    await page.waitForSelector('body[data-current="record"]', { timeout: 15_000 });
    await page.waitForSelector('body[data-current="upload"], body[data-current="verifying"]', { timeout: 60_000 });
    expect(calls.slice(0, 3)).toEqual(['webauthn/options', 'webauthn/verify', 'live']);
    expect(calls.filter((c) => c.startsWith('webauthn'))).toHaveLength(2);
    expect(calls.at(-1)).toBe('finish');

    // The authenticator holds one credential for this relying party, and the server recorded it.
    const { credentials } = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as {
      credentials: { rpId: string }[];
    };
    expect(credentials.map((c) => c.rpId)).toEqual(['localhost']);

    // The capture, sent after the confirmation, carries the stronger verification mode.
    await page.waitForSelector('body[data-current="verifying"]', { timeout: 90_000 }).catch(async (e: Error) => {
      throw new Error(`${e.message}; the page says: ${await page.textContent('#upload-text')}`);
    });
    // Ids restart in each test database: the document hash (a unique PDF) picks this capture.
    const detail = await send(stack.gatewayUrl, 'GET', `/api/transactions/${tx.id}`, { headers: { 'x-api-key': acct.apiKey } });
    const documentSha256 = detail.body.document_sha256 as string;
    expect(documentSha256).toMatch(/^[0-9a-f]{64}$/);
    const ev = await eventually(async () => {
      const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.captureSubmitted.subject] });
      const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
      let found: eventsV1.CaptureSubmitted | undefined;
      for await (const m of batch) {
        const e = eventsV1.CaptureSubmitted.decode(m.data);
        if (e.documentSha256 === documentSha256) found = e;
      }
      return found;
    }, 30_000);
    expect(ev.verificationMode).toBe('biometric+webauthn');
  }, 180_000);
});
