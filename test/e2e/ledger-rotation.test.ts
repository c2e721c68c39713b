/**
 * Log key rotation end to end (issue 17 item 5), through the gateway and the signet-verify CLI: certificates
 * issued under the first key; the ledger restarted with a new signing key and the first one retired
 * (LEDGER_RETIRED_KEYS with its period); more certificates issued. Every certificate verifies online
 * (/api/verify) and offline with the public-key document as served (both keys), including a cert.json
 * saved before the rotation; a checkpoint signed by the retired key for a certificate verified after
 * its period is refused by the CLI.
 */
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import {
  certificateLeaf,
  formatSeal,
  keyId,
  leafHash,
  parseNote,
  parseVerifierKey,
  sealMessage,
  signatureLine,
} from '@signet/verify';
import { eventually, infra, startServices } from '../harness/services.js';
import { signetVerify } from '../../services/ledger/test/fixtures/signed-pdf-checks.js';

const root = join(import.meta.dirname, '../..');
const reference = () => `ROT-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const ed25519Pem = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

type Bundle = Record<string, unknown> & {
  certificate: Record<string, unknown>;
  checkpoint: string;
  ledger_seal: string;
  leaf_index: number;
};
type ServedKeys = {
  origin: string;
  key_id: string;
  verifier_key: string;
  keys: { key_id: string; verifier_key: string; not_before: string | null; not_after: string | null; current: boolean }[];
};

async function publishVerified(bus: Bus, ref: string, documentSha256: string, verifiedAt: string) {
  const eventId = randomUUID();
  await publishEvent(bus, events.transactionVerified, {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: new Date().toISOString(),
        transactionId: 21,
        reference: ref,
        documentSha256,
        documentName: 'Lease.pdf',
        issuerName: 'Rotation Ltd',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [
          {
            name: 'Ada',
            email: 'ada@example.com',
            verificationMode: 'liveness',
            assurance: 'live',
            verifiedAt,
            checks: ['liveness'],
          },
        ],
      }),
    ).finish(),
  });
}

describe('log key rotation: certificates before and after keep verifying online and offline', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  let dir: string;
  const get = (path: string) => fetch(`${stack.gatewayUrl}${path}`);
  const docs = [0, 1, 2, 3].map(() => randomBytes(2048));
  const shas = docs.map((d) => createHash('sha256').update(d).digest('hex'));
  const refs = docs.map(() => reference());
  const newKey = ed25519Pem();

  beforeAll(async () => {
    stack = await startServices(['ledger', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'test');
    dir = mkdtempSync(join(tmpdir(), 'signet-rotation-e2e-'));
    docs.forEach((d, i) => writeFileSync(join(dir, `doc${i}.pdf`), d));
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const verified = (i: number) =>
    eventually(async () => {
      const res = await get(`/api/verify/${refs[i]}/${shas[i]!.slice(0, 16)}`);
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
  const bundleOf = async (i: number) => {
    const res = await get(`/api/ledger/proof/${refs[i]}?hash=${shas[i]}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Bundle;
  };
  const cli = (bundle: unknown, i: number, keyFile: string) => {
    const path = join(dir, `cert-${randomUUID()}.json`);
    writeFileSync(path, JSON.stringify(bundle));
    return signetVerify(root, [path, join(dir, `doc${i}.pdf`), '--key', keyFile]);
  };
  let before: { keys: ServedKeys; bundles: Bundle[] };
  let rotatedAt: string;

  it('issues two certificates under the first key', async () => {
    for (const i of [0, 1]) await publishVerified(bus, refs[i]!, shas[i]!, new Date().toISOString());
    for (const i of [0, 1]) expect((await verified(i)).valid).toBe(true);
    const keys = (await (await get('/api/ledger/public-key')).json()) as ServedKeys;
    expect(keys.keys).toEqual([expect.objectContaining({ key_id: keys.key_id, current: true, not_after: null })]);
    before = { keys, bundles: [await bundleOf(0), await bundleOf(1)] };
    expect(before.bundles[0]!.format).toBe('signet-certificate-bundle/v2');
    expect(before.bundles[0]!.certificate).toMatchObject({ version: 2, document_name: 'Lease.pdf' });
  });

  it('rotates: the ledger restarts with a new key and the old one retired; more certificates follow', async () => {
    rotatedAt = new Date().toISOString();
    await stack.stopService('ledger');
    await stack.startService('ledger', {
      LEDGER_SIGNING_KEY: newKey,
      LEDGER_SIGNING_KEY_NOT_BEFORE: rotatedAt,
      LEDGER_RETIRED_KEYS: JSON.stringify([{ verifier_key: before.keys.verifier_key, not_after: rotatedAt }]),
    });
    for (const i of [2, 3]) await publishVerified(bus, refs[i]!, shas[i]!, new Date(Date.now() + 1000).toISOString());
    for (const i of [2, 3]) expect((await verified(i)).valid).toBe(true);
    const keys = await eventually(async () => {
      const k = (await (await get('/api/ledger/public-key')).json()) as ServedKeys;
      return k.keys.length === 2 ? k : undefined;
    });
    // The route's old fields are the current key; keys lists both with their periods.
    expect(keys.key_id).not.toBe(before.keys.key_id);
    expect(keys.keys.map((k) => [k.key_id, k.current, k.not_before, k.not_after])).toEqual([
      [keys.key_id, true, new Date(rotatedAt).toISOString(), null],
      [before.keys.key_id, false, null, new Date(rotatedAt).toISOString()],
    ]);
    writeFileSync(join(dir, 'keys.json'), JSON.stringify(keys));
    writeFileSync(join(dir, 'new.vkey'), keys.verifier_key);
  });

  it('verifies every certificate online and offline (the CLI with the key file as served)', async () => {
    for (const i of [0, 1, 2, 3]) expect((await verified(i)).valid, refs[i]).toBe(true);
    // Saved before the rotation: checkpoint and seal by the retired key.
    for (const i of [0, 1]) {
      const r = await cli(before.bundles[i], i, join(dir, 'keys.json'));
      expect(r.out).toContain(`VALID certificate ${refs[i]}`);
      expect(r.out).toMatch(/PASS checkpoint: .*\(retired\)/);
      expect(r.code).toBe(0);
      // The current key alone does not verify what the retired one signed: the list is needed.
      expect((await cli(before.bundles[i], i, join(dir, 'new.vkey'))).code).toBe(1);
    }
    // Fetched now: the newest checkpoint (new key) over the old certificates' seals (retired key), and the new ones.
    for (const i of [0, 1, 2, 3]) {
      const b = await bundleOf(i);
      const r = await cli(b, i, join(dir, 'keys.json'));
      expect(r.out, refs[i]).toContain(`VALID certificate ${refs[i]}`);
      expect(r.code).toBe(0);
      if (i < 2) expect(b.ledger_seal).toBe(before.bundles[i]!.ledger_seal);
    }
  });

  it('refuses a checkpoint (and a seal) signed by the retired key for a certificate verified after its period', async () => {
    const b = await bundleOf(3);
    const oldKey = createPrivateKey(stack.secrets.LEDGER_SIGNING_KEY);
    const origin = before.keys.origin;
    const oldPub = parseVerifierKey(before.keys.verifier_key).publicKey;
    const text = parseNote(b.checkpoint).text;
    const forgedCheckpoint = `${text}\n${signatureLine(origin, oldPub, sign(null, Buffer.from(text), oldKey))}`;
    const r = await cli({ ...b, checkpoint: forgedCheckpoint }, 3, join(dir, 'keys.json'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /FAIL checkpoint: checkpoint signed outside its key's period: key [0-9a-f]{8} \(retired\) was retired at/,
    );
    const leaf = leafHash(certificateLeaf(b.certificate));
    const forgedSeal = formatSeal(
      keyId(origin, oldPub),
      b.leaf_index,
      sign(null, Buffer.from(sealMessage(origin, b.leaf_index, leaf)), oldKey),
    );
    const s = await cli({ ...b, ledger_seal: forgedSeal }, 3, join(dir, 'keys.json'));
    expect(s.code).toBe(1);
    expect(s.out).toMatch(/FAIL seal: ledger seal made outside its key's period/);
  });

  it('refuses bad rotation configuration at start, naming the variable', async () => {
    await stack.stopService('ledger');
    await expect(
      stack.startService('ledger', { LEDGER_RETIRED_KEYS: JSON.stringify([{ verifier_key: 'nope' }]) }),
    ).rejects.toThrow(/LEDGER_RETIRED_KEYS/);
  });
});
