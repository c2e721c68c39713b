import { PNG } from 'pngjs';
import { events, identityBrandingV1 } from '@signet/proto';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '@signet/kit';
import type { BrandingRecord } from '../store/branding.repository.js';
import { setBranding } from './set-branding.js';

const { LOGO_CHANGE_UNSPECIFIED: KEEP, LOGO_CHANGE_SET: SET, LOGO_CHANGE_REMOVE: REMOVE } = identityBrandingV1.LogoChange;

function fakes() {
  const state: { rec: Omit<BrandingRecord, '_id'> | null; outbox: OutboxEntry[]; audit: OutboxEntry[]; counted: string[] } = {
    rec: null,
    outbox: [],
    audit: [],
    counted: [],
  };
  const deps = {
    branding: {
      get: async () => (state.rec ? { _id: 'org', ...state.rec } : null),
      set: async (_id: string, next: Omit<BrandingRecord, '_id'>, evs: OutboxEntry[]) => {
        state.rec = next;
        state.outbox.push(evs[0]!);
        state.audit.push(...evs.slice(1));
      },
    },
    changes: { inc: ({ part }: { part: string }) => void state.counted.push(part) },
    logger: { info: () => undefined } as never,
    now: () => Date.parse('2026-11-29T02:00:00Z'),
  };
  return { state, deps };
}
const req = (o: Partial<identityBrandingV1.SetBrandingRequest>): identityBrandingV1.SetBrandingRequest => ({
  orgId: 'org',
  actorId: 'member-1',
  displayName: '',
  color: '',
  replyTo: '',
  logoChange: KEEP,
  logo: Buffer.alloc(0),
  ...o,
});
const logo = () => {
  const p = new PNG({ width: 20, height: 20 });
  p.data.fill(200);
  return PNG.sync.write(p);
};

describe('setBranding', () => {
  it('writes the branding with its identity.branding.changed event naming what changed and who', async () => {
    const { state, deps } = fakes();
    const out = await setBranding(deps, req({ displayName: 'Acme Legal', color: '#0B5CAD', logoChange: SET, logo: logo() }));
    expect(out).toMatchObject({ displayName: 'Acme Legal', color: '#0b5cad', logoWidth: 20, logoHeight: 20 });
    expect(out.logoSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(state.outbox).toHaveLength(1);
    expect(state.outbox[0]!.subject).toBe('signet.identity.branding.changed');
    const ev = events.brandingChanged.message.decode(state.outbox[0]!.payload as Uint8Array);
    expect(ev).toMatchObject({ orgId: 'org', actorId: 'member-1', changed: ['display_name', 'color', 'logo'] });
    expect(ev.branding?.logoSha256).toBe(out.logoSha256);
    expect(state.counted).toEqual(['display_name', 'color', 'logo']);
  });

  it('writes the audit entry in the same update: the parts changed, their values and the logo hash, never the bytes', async () => {
    const { state, deps } = fakes();
    const users = {
      byId: async (id: string) => (id === 'member-1' ? ({ _id: id, email: 'm@acme.example', org_id: 'org' } as never) : null),
    };
    const out = await setBranding({ ...deps, users }, req({ color: '#0B5CAD', logoChange: SET, logo: logo() }), {
      ip: '203.0.113.9',
      userAgent: 'UA/1',
    });
    expect(state.audit).toHaveLength(1);
    expect(state.audit[0]!.subject).toBe('signet.identity.audit.recorded');
    const e = events.auditRecorded.message.decode(state.audit[0]!.payload as Uint8Array);
    expect(e).toMatchObject({
      accountId: 'org',
      action: 'branding.changed',
      actorId: 'member-1',
      actorEmail: 'm@acme.example',
      target: 'org',
      ip: '203.0.113.9',
      userAgent: 'UA/1',
      details: { changed: 'color logo', color: '#0b5cad', logo_sha256: out.logoSha256 },
    });
    await setBranding({ ...deps, users }, req({ color: '#0B5CAD', logoChange: KEEP }));
    expect(state.audit).toHaveLength(1);
  });

  it('keeps the logo unless told to replace or remove it; an unchanged branding writes nothing', async () => {
    const { state, deps } = fakes();
    const first = await setBranding(deps, req({ logoChange: SET, logo: logo() }));
    await setBranding(deps, req({ replyTo: 'legal@acme.example' }));
    expect(state.rec!.logo_sha256).toBe(first.logoSha256);
    expect(state.outbox).toHaveLength(2);
    await setBranding(deps, req({ replyTo: 'legal@acme.example' }));
    expect(state.outbox).toHaveLength(2);
    await setBranding(deps, req({ replyTo: 'legal@acme.example', logoChange: REMOVE }));
    expect(state.rec).toMatchObject({ logo_sha256: '', logo_png: null });
    expect(events.brandingChanged.message.decode(state.outbox[2]!.payload as Uint8Array).changed).toEqual(['logo']);
  });

  it('changes nothing when any part is refused', async () => {
    const { state, deps } = fakes();
    await setBranding(deps, req({ displayName: 'Acme', color: '#0b5cad' }));
    for (const bad of [
      req({ displayName: 'Evil', color: '#ffff00' }),
      req({ displayName: 'Evil', replyTo: 'not-an-address' }),
      req({ displayName: 'Evil', logoChange: SET, logo: Buffer.from('<svg/>') }),
    ])
      await expect(setBranding(deps, bad)).rejects.toThrow(/^(color|reply_to|logo):/);
    expect(state.rec).toMatchObject({ display_name: 'Acme', color: '#0b5cad' });
    expect(state.outbox).toHaveLength(1);
  });
});
