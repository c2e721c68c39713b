/**
 * The chart's witnesses and B-LTA settings (issue 32 items 5 and 7): several witnesses with a quorum
 * reach the ledger as the LEDGER_WITNESSES / LEDGER_WITNESS_QUORUM the ledger itself parses, the ledger
 * may reach them (egress on their ports), and a configuration the ledger would refuse fails the render.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig } from '@signet/kit';
import { formatWitnessKey } from '@signet/verify';
import { witnessConfigSchema, witnessSettings } from '../../services/ledger/src/witness/witness.config.ts';
import { CHART, KUBE_VERSION, THROWAWAY, ciValues, helmBin, helmTemplate, parseManifests, run, type K8sObject } from './helm.ts';

const pub = () => generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
const witnesses = [
  { url: 'https://witness.example.org/', key: formatWitnessKey('witness.example.org', pub()) },
  { url: 'http://w2.example.net:7380', key: formatWitnessKey('w2.example.net', pub()) },
];
const dir = mkdtempSync(join(tmpdir(), 'signet-chart-witness-'));
const valuesFile = (name: string, v: unknown) => {
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, stringify(v));
  return f;
};
const render = (v: unknown, extra: string[] = []) =>
  parseManifests(helmTemplate(ciValues().default, ['-f', valuesFile('v', v), '--set', 'networkPolicy.enabled=true', ...extra]));
const find = (objs: K8sObject[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name)!;
const refused = (v: unknown) =>
  run(helmBin(), [
    'template',
    'signet',
    CHART,
    '--kube-version',
    KUBE_VERSION,
    ...THROWAWAY,
    '-f',
    ciValues().default!,
    '-f',
    valuesFile('bad', v),
  ]);

describe('charts/signet: witnesses with a quorum, and B-LTA', { timeout: 60_000 }, () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes every witness and the quorum to the ledger as the ledger parses them, and opens egress to their ports', () => {
    const objs = render({ witnessing: { witnesses, quorum: 2 } });
    const data = find(objs, 'ConfigMap', 'signet-ledger').data as Record<string, string>;
    const settings = witnessSettings(parseConfig(witnessConfigSchema, data));
    expect(settings.quorum).toBe(2);
    expect(settings.witnesses.map((w) => [w.name, w.url])).toEqual([
      ['witness.example.org', 'https://witness.example.org'],
      ['w2.example.net', 'http://w2.example.net:7380'],
    ]);
    const egress = find(objs, 'NetworkPolicy', 'signet-ledger').spec.egress as { ports?: { port: number }[] }[];
    const ports = (p: number) =>
      egress.some(
        (r) => r.ports?.length && r.ports.every((x) => [443, 7380].includes(x.port)) && r.ports.some((x) => x.port === p),
      );
    expect(ports(443) && ports(7380)).toBe(true);
    // No quorum given: the ledger's default (every witness); none listed: no witnessing, no egress rule.
    const all = find(render({ witnessing: { witnesses } }), 'ConfigMap', 'signet-ledger').data as Record<string, string>;
    expect(all.LEDGER_WITNESS_QUORUM).toBeUndefined();
    expect(witnessSettings(parseConfig(witnessConfigSchema, all)).quorum).toBe(2);
    const none = render({});
    expect(find(none, 'ConfigMap', 'signet-ledger').data.LEDGER_WITNESSES).toBeUndefined();
    expect(JSON.stringify(find(none, 'NetworkPolicy', 'signet-ledger').spec.egress)).not.toContain('7380');
  });

  it('refuses a quorum above the witnesses, a key listed twice and a witness without a URL', () => {
    for (const [v, message] of [
      [{ witnessing: { witnesses, quorum: 3 } }, /witnessing.quorum: between 1 and the 2 witness/],
      [{ witnessing: { witnesses: [witnesses[0], { ...witnesses[0], url: 'https://other.example/' }] } }, /key listed twice/],
      [{ witnessing: { witnesses: [{ key: witnesses[0]!.key }] } }, /url/],
    ] as const) {
      const r = refused(v);
      expect(r.status, JSON.stringify(v)).not.toBe(0);
      expect(r.stderr).toMatch(message);
    }
  });

  it('turns B-LTA on with its margin and CA certificates, and only on top of B-LT', () => {
    const ca = '-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n';
    const on = find(
      render({ signedPdf: { ltv: true, lta: true, caCertificates: ca, retimestampMarginDays: 60 } }),
      'ConfigMap',
      'signet-ledger',
    ).data as Record<string, string>;
    expect(on).toMatchObject({
      LEDGER_SEAL_LTV: 'on',
      LEDGER_SEAL_LTA: 'on',
      LEDGER_RETIMESTAMP_MARGIN_MS: String(60 * 86_400_000),
    });
    expect(on.LEDGER_SEAL_CA_CERTS).toBe(ca);
    expect(find(render({}), 'ConfigMap', 'signet-ledger').data.LEDGER_SEAL_LTA).toBeUndefined();
    const r = refused({ signedPdf: { lta: true } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/signedPdf.lta: B-LTA extends B-LT/);
  });
});
