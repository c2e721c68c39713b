import { describe, expect, it } from 'vitest';
import {
  achievedAssurance,
  ASSURANCE_LEVELS,
  ASSURANCE_MEANINGS,
  assuranceMeaning,
  certificateAssuranceOf,
  certifiedAssurance,
  isAssuranceLevel,
  lowestAssurance,
  meetsAssurance,
} from './assurance.js';

describe('assurance levels and what they prove', () => {
  it('raises only a live capture with WebAuthn to live+webauthn; a recorded one stays recorded', () => {
    expect(achievedAssurance('live', true)).toBe('live+webauthn');
    expect(achievedAssurance('live', false)).toBe('live');
    expect(achievedAssurance('recorded', true)).toBe('recorded');
    expect(achievedAssurance('test', true)).toBe('test');
    // a record or certificate that already holds the level keeps it
    expect(achievedAssurance('live+webauthn', false)).toBe('live+webauthn');
  });

  it('reads an empty or unknown timing as recorded, never as live', () => {
    for (const v of ['', undefined, null, 'LIVE', 'live ', 'webauthn']) expect(achievedAssurance(v, true)).toBe('recorded');
    expect(isAssuranceLevel('live')).toBe(true);
    expect(isAssuranceLevel('Live')).toBe(false);
  });

  it('takes the weakest signer as what a certificate proves', () => {
    expect(lowestAssurance(['live+webauthn', 'recorded', 'live'])).toBe('recorded');
    expect(lowestAssurance(['live+webauthn', 'live'])).toBe('live');
    expect(lowestAssurance(['live', 'test'])).toBe('test');
    expect(lowestAssurance(['live+webauthn'])).toBe('live+webauthn');
    expect(lowestAssurance([])).toBeUndefined();
  });

  it('orders the levels for a requirement', () => {
    expect(meetsAssurance('live+webauthn', 'live')).toBe(true);
    expect(meetsAssurance('live', 'live+webauthn')).toBe(false);
    expect(meetsAssurance('recorded', 'live')).toBe(false);
    expect(meetsAssurance('test', 'recorded')).toBe(false);
  });

  it('has one plain ASCII sentence per level, and says what live does not rule out', () => {
    for (const l of ASSURANCE_LEVELS) {
      expect(assuranceMeaning(l)).toMatch(/^[A-Z][\x20-\x7e]+\.$/);
      expect(assuranceMeaning(l).split('. ').length).toBe(1);
    }
    expect(ASSURANCE_MEANINGS.recorded).toMatch(/possibly produced before/);
    expect(ASSURANCE_MEANINGS.live).toMatch(/real time.*virtual camera/);
    expect(ASSURANCE_MEANINGS['live+webauthn']).toMatch(/WebAuthn.*virtual camera/);
  });

  it('reads a certificate as sealed: the sentence sealed with it wins; an older one is read from live and webauthn', () => {
    expect(certifiedAssurance({ assurance: 'live', assurance_meaning: 'as sealed then.' })).toEqual({
      assurance: 'live',
      assurance_meaning: 'as sealed then.',
    });
    expect(certifiedAssurance({ assurance: 'live', webauthn: true })).toEqual({
      assurance: 'live+webauthn',
      assurance_meaning: ASSURANCE_MEANINGS['live+webauthn'],
    });
    expect(certifiedAssurance({ assurance: 'live', checks: ['liveness', 'webauthn'] }).assurance).toBe('live+webauthn');
    // malformed JSON reads as recorded, never as more
    expect(certifiedAssurance({ assurance: 7, webauthn: 'yes', checks: 'webauthn' }).assurance).toBe('recorded');
    expect(certifiedAssurance({}).assurance).toBe('recorded');
  });

  it('gives a certificate its weakest signer’s level and sentence, and every signer’s', () => {
    const a = certificateAssuranceOf([
      { name: 'Ada', role: 'signer', assurance: 'live+webauthn' },
      { name: 'Bob', role: 'approver', assurance: 'recorded', assurance_meaning: 'sealed recorded.' },
      { name: 'Cy', assurance: 'live' },
    ]);
    expect(a.assurance).toBe('recorded');
    expect(a.assurance_meaning).toBe('sealed recorded.');
    expect(a.signers.map((s) => [s.name, s.role, s.assurance])).toEqual([
      ['Ada', 'signer', 'live+webauthn'],
      ['Bob', 'approver', 'recorded'],
      ['Cy', 'signer', 'live'],
    ]);
    expect(certificateAssuranceOf([]).assurance).toBe('recorded');
  });
});
