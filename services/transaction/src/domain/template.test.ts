import { describe, expect, it } from 'vitest';
import { checkRoles, checkTemplateName, parseTemplateFields, partiesAndFieldsOf, type TemplateRole } from './template.js';

const role = (name: string, over: Partial<TemplateRole> = {}): TemplateRole => ({
  name,
  order: 1,
  verification: '',
  webauthn: false,
  required_assurance: '',
  ...over,
});
const at = { page: 1, x: 10, y: 10, width: 50, height: 20 };

describe('template roles and fields', () => {
  it('checks names and roles as a signers list is checked, naming the role', () => {
    expect(checkTemplateName('  Agreement ')).toBe('Agreement');
    expect(() => checkTemplateName(' ')).toThrow('name: is required');
    expect(() => checkTemplateName('a\u0007b')).toThrow('control characters');
    expect(checkRoles([role('client'), role('witness', { order: 2 })]).map((r) => r.order)).toEqual([1, 2]);
    expect(() => checkRoles([])).toThrow('roles: must list at least one role');
    expect(() => checkRoles([role('client'), role('CLIENT')])).toThrow('roles[1]: name "CLIENT" is used twice');
    expect(() => checkRoles([role(' ')])).toThrow('roles[0]: name must be 1 to 64');
    expect(() => checkRoles([role('a'), role('b', { order: 3 })])).toThrow(/^roles: orders must run 1, 2, … without gaps/);
    expect(() => checkRoles([role('a', { verification: 'retina' })])).toThrow(/^roles\[0\] \(a\): /);
  });

  it('takes fields that name a role, and refuses those that name none or a signer', () => {
    const roles = [role('client'), role('witness')];
    const { kept, specs } = parseTemplateFields(
      [
        { type: 'text', role: 'witness', ...at },
        { id: 'sig', type: 'signature', role: 'client', ...at, y: 100 },
      ],
      roles,
    );
    expect(kept.map((f) => [f.id, f.role])).toEqual([
      ['field_1', 'witness'],
      ['sig', 'client'],
    ]);
    expect(specs.map((s) => s.party)).toEqual([1, 0]);
    expect(() => parseTemplateFields([{ type: 'text', role: 'notary', ...at }], roles)).toThrow(
      "fields[0]: role must name one of the template's roles: client, witness",
    );
    expect(() => parseTemplateFields([{ type: 'text', signer: 0, ...at }], roles)).toThrow('names its role, not a signer');
    expect(() => parseTemplateFields({}, roles)).toThrow('fields: must be a JSON array');
    expect(() => parseTemplateFields([{ type: 'stamp', role: 'client', ...at }], roles)).toThrow(/type must be one of/);
  });

  it('maps each role to its signer, in the roles’ order, with prefilled values on known fields only', () => {
    const tpl = {
      roles: [role('client'), role('witness', { verification: 'liveness_only' })],
      fields: [
        { id: 'co', type: 'text', role: 'client', ...at },
        { id: 'ok', type: 'checkbox', role: 'witness', ...at, y: 100 },
      ],
    };
    const signers = [
      { role: 'witness', name: 'Bob', email: 'bob@example.com' },
      { role: 'client', name: 'Ada', email: 'ada@example.com' },
    ];
    const { parties, formFields } = partiesAndFieldsOf(tpl, signers, { co: 'Engines' });
    expect(parties.map((p) => [p.name, p.verification])).toEqual([
      ['Ada', ''],
      ['Bob', 'liveness_only'],
    ]);
    expect(JSON.parse(formFields)).toEqual([
      { id: 'co', type: 'text', ...at, value: 'Engines', signer: 0 },
      { id: 'ok', type: 'checkbox', ...at, y: 100, signer: 1 },
    ]);
    expect(() => partiesAndFieldsOf(tpl, signers.slice(1), undefined)).toThrow('signers: no signer for the role "witness"');
    expect(() => partiesAndFieldsOf(tpl, [...signers, signers[0]!], undefined)).toThrow(
      'signers[2]: role "witness" is given twice',
    );
    expect(() => partiesAndFieldsOf(tpl, [{ ...signers[0]!, role: 'x' }], undefined)).toThrow(
      /signers\[0\]: role "x" is not one/,
    );
    expect(() => partiesAndFieldsOf(tpl, signers, { nope: 1 })).toThrow('values.nope: there is no such field in the template');
    expect(() => partiesAndFieldsOf(tpl, signers, ['x'])).toThrow('values: must be an object');
  });
});
