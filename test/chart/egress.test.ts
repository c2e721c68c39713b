/**
 * Issue 35 item 4: a values file whose NetworkPolicies block its own endpoints. The production example
 * narrowed egress to private peers while pointing S3 and SMTP at public hostnames, so copied as is,
 * uploads and mail were blocked. Every ci values file must let each service reach every endpoint its
 * ConfigMap names (test/chart/egress.ts says how hosts and peers are matched without DNS).
 */
import { describe, expect, it } from 'vitest';
import { blockedEndpoints, classify, peerAdmits } from './egress.ts';
import { NAMESPACE, RELEASE, ciValues, helmTemplate, parseManifests } from './helm.ts';

const release = { name: RELEASE, namespace: NAMESPACE };
const values = ciValues();

describe('NetworkPolicy egress matches the endpoints', { timeout: 60_000 }, () => {
  it.each(Object.keys(values))('%s: every endpoint a ConfigMap names is reachable', (name) => {
    expect(blockedEndpoints(parseManifests(helmTemplate(values[name])), release)).toEqual([]);
  });

  it('fails when the production values disagree: public S3 and SMTP behind private-only egress', () => {
    // The production example as it was: endpointPeers dropped, externalPeers private only.
    const objs = parseManifests(helmTemplate(values.production, ['--set-json', 'networkPolicy.endpointPeers={}']));
    const blocked = blockedEndpoints(objs, release);
    // (transaction and ledger reach S3 anyway: their webhook and sealing egress opens the public internet.)
    expect(blocked).toContain('ceremony: S3_ENDPOINT https://s3.eu-central-1.amazonaws.com (public) on 443');
    expect(blocked).toContain('identity: SMTP_URL smtps://smtp.example.com:465 (public) on 465');
    expect(blocked).toContain('biometrics: S3_ENDPOINT https://s3.eu-central-1.amazonaws.com (public) on 443');
    // Redis on the private network and NATS in the messaging namespace stay reachable.
    expect(blocked.filter((l) => /REDIS_URL|NATS_URL/.test(l))).toEqual([]);
  });

  it('fails for an in-cluster endpoint in a namespace no peer names, and for the wrong port', () => {
    const nsOnly = '[{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"messaging"}}}]';
    const moved = parseManifests(
      helmTemplate(values.production, [
        '--set',
        'external.natsUrl=nats://nats.other.svc:4222',
        '--set-json',
        `networkPolicy.externalPeers=${nsOnly}`,
      ]),
    );
    expect(blockedEndpoints(moved, release)).toContain('ceremony: NATS_URL nats://nats.other.svc:4222 (cluster) on 4222');
    const port = parseManifests(helmTemplate(values.production, ['--set', 'external.ports.s3=8443']));
    expect(blockedEndpoints(port, release).some((l) => l.startsWith('ceremony: S3_ENDPOINT'))).toBe(true);
  });

  it('the evaluation infra is reached through its own pods, and only through them', () => {
    expect(blockedEndpoints(parseManifests(helmTemplate(values.default)), release)).toEqual([]);
    const moved = parseManifests(
      helmTemplate(values.default, ['--set', 'services.ceremony.env.REDIS_URL=redis://signet-mailpit:6379']),
    );
    expect(blockedEndpoints(moved, release)).toEqual(['ceremony: REDIS_URL redis://signet-mailpit:6379 (cluster) on 6379']);
  });

  it('classifies hosts and peers without DNS', () => {
    const pub = classify('s3.eu-central-1.amazonaws.com', 'signet');
    const internet = { ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } };
    expect(peerAdmits(internet, pub, release)).toBe(true);
    expect(peerAdmits({ ipBlock: { cidr: '10.0.0.0/8' } }, pub, release)).toBe(false);
    expect(peerAdmits({ ipBlock: { cidr: '0.0.0.0/1', except: ['0.0.0.0/1'] } }, pub, release)).toBe(false);
    expect(peerAdmits({ ipBlock: { cidr: '52.219.0.0/16' } }, classify('52.219.170.1', 'signet'), release)).toBe(true);
    expect(peerAdmits({ ipBlock: { cidr: '52.219.0.0/16' } }, classify('52.218.1.1', 'signet'), release)).toBe(false);
    expect(peerAdmits(internet, classify('10.1.2.3', 'signet'), release)).toBe(false);
    expect(peerAdmits({ ipBlock: { cidr: '10.0.0.0/8' } }, classify('redis.signet.internal', 'signet'), release)).toBe(true);
    const ns = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'messaging' } } };
    expect(peerAdmits(ns, classify('nats.messaging.svc.cluster.local', 'signet'), release)).toBe(true);
    expect(peerAdmits(ns, classify('nats.messaging.svc', 'signet'), release)).toBe(true);
    expect(peerAdmits(ns, classify('nats.messaging.example.com', 'signet'), release)).toBe(false);
  });
});
