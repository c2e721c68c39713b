import { describe, expect, it } from 'vitest';
import { eventEntries, events, eventsOf, registryProblems, type EventEntry } from '../index.js';

const codec = { encode: () => ({ finish: () => new Uint8Array() }), decode: () => ({}) };
const ok: EventEntry = {
  subject: 'signet.ceremony.example.accepted',
  message: codec,
  producer: 'ceremony',
  consumers: [{ service: 'transaction', durable: 'transaction-state' }],
};

describe('the event registry', () => {
  it('holds: one entry a subject, each produced by a known service, every name signet.<service>.<noun>.<past-tense>', () => {
    expect(registryProblems(eventEntries)).toEqual([]);
  });

  it('gives each durable the events it reads', () => {
    expect(eventsOf('ceremony-biometrics-verdict')).toEqual([events.verdictIssued]);
    expect(eventsOf('transaction-state')).toEqual([
      events.consentAccepted,
      events.captureSubmitted,
      events.attemptForfeited,
      events.verdictIssued,
      events.certificateIssued,
    ]);
  });

  it('fails when a consumer subscribes to a subject no service produces', () => {
    expect(registryProblems([{ ...ok, producer: 'mailer' as never }])).toEqual(
      expect.arrayContaining([expect.stringContaining('no known service produces it')]),
    );
    // A subject under another service's name is not declared by the entry's producer either.
    expect(registryProblems([{ ...ok, producer: 'identity' }])).toEqual([
      'signet.ceremony.example.accepted: not signet.<producer>.<noun>.<past-tense> for producer identity',
    ]);
  });

  it('fails when two entries share a subject', () => {
    expect(registryProblems([ok, { ...ok, consumers: [] }])).toEqual(['signet.ceremony.example.accepted: declared by 2 entries']);
  });

  it('fails when a name breaks the rule', () => {
    const named = (subject: string) => registryProblems([{ ...ok, subject }]);
    expect(named('signet.biometrics.verdict')).toHaveLength(1);
    expect(named('signet.ceremony.verdict')).toEqual(['signet.ceremony.verdict: the last word "verdict" is not past tense']);
    expect(named('signet.ceremony.Example.accepted')).toHaveLength(1);
    expect(named('signet.ceremony.example-accepted')).toHaveLength(1);
    expect(named('ceremony.consent.accepted')).toHaveLength(1);
    expect(named('signet.ceremony.links.sent')).toEqual([]);
  });

  it('fails when two services claim one durable name', () => {
    const other: EventEntry = {
      ...ok,
      subject: 'signet.ceremony.sample.recorded',
      consumers: [{ service: 'biometrics', durable: 'transaction-state' }],
    };
    expect(registryProblems([ok, other])).toEqual([
      'signet.ceremony.sample.recorded: durable transaction-state is declared by transaction and biometrics',
    ]);
  });
});
