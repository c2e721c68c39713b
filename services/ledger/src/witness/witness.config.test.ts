import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { formatVerifierKey, formatWitnessKey } from '@signet/verify';
import { z } from 'zod';
import { addCheckpointBody } from './witness-client.js';
import { witnessConfigFields, witnessSettings } from './witness.config.js';

const pub = () => generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
const schema = z.object(witnessConfigFields);

describe('witness configuration', () => {
  const a = formatWitnessKey('witness.test/a', pub());
  const b = formatWitnessKey('witness.test/b', pub());

  it('is off by default and reads a JSON list of witnesses with a quorum defaulting to all of them', () => {
    expect(witnessSettings(parseConfig(schema, {})).witnesses).toEqual([]);
    const cfg = parseConfig(schema, {
      LEDGER_WITNESSES: JSON.stringify([
        { url: 'http://127.0.0.1:7380/', key: a },
        { url: 'https://w.example/b', key: b },
      ]),
    });
    const s = witnessSettings(cfg);
    expect(s.quorum).toBe(2);
    expect(s.witnesses.map((w) => [w.name, w.url])).toEqual([
      ['witness.test/a', 'http://127.0.0.1:7380'],
      ['witness.test/b', 'https://w.example/b'],
    ]);
  });

  it('refuses a bad list, a log (not witness) key, a quorum above the witnesses and a witness listed twice', () => {
    expect(() => parseConfig(schema, { LEDGER_WITNESSES: 'not json' })).toThrow(/LEDGER_WITNESSES/);
    expect(() => parseConfig(schema, { LEDGER_WITNESSES: JSON.stringify([{ url: 'x', key: a }]) })).toThrow(/LEDGER_WITNESSES/);
    const logKey = formatVerifierKey('signet.test/ledger', pub());
    expect(() => parseConfig(schema, { LEDGER_WITNESSES: JSON.stringify([{ url: 'http://w', key: logKey }]) })).toThrow(
      /witness verifier key/,
    );
    const one = parseConfig(schema, {
      LEDGER_WITNESSES: JSON.stringify([{ url: 'http://w', key: a }]),
      LEDGER_WITNESS_QUORUM: '2',
    });
    expect(() => witnessSettings(one)).toThrow(/LEDGER_WITNESS_QUORUM/);
    const twice = parseConfig(schema, {
      LEDGER_WITNESSES: JSON.stringify([
        { url: 'http://w', key: a },
        { url: 'http://v', key: a },
      ]),
    });
    expect(() => witnessSettings(twice)).toThrow(/twice/);
  });

  it('writes the tlog-witness add-checkpoint body: old size, proof lines, blank line, checkpoint', () => {
    const note = 'o\n5\nAAAA\n\n— o sig\n';
    expect(addCheckpointBody(3, [Buffer.alloc(32, 1)], note)).toBe(`old 3\n${Buffer.alloc(32, 1).toString('base64')}\n\n${note}`);
    expect(addCheckpointBody(0, [], note)).toBe(`old 0\n\n${note}`);
  });
});
