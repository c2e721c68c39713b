import { describe, expect, it } from 'vitest';
import {
  bulkFingerprint,
  checkBulkShape,
  keyedBulkJobId,
  prefillValue,
  rowConsumptionId,
  rowIdempotencyKey,
  rowProblem,
  type BulkRowInput,
} from './bulk.js';

const tpl = {
  roles: [
    { name: 'client', verification: 'liveness_only' },
    { name: 'witness', verification: 'face_match' },
  ],
  fields: [
    { id: 'company', type: 'text' },
    { id: 'agree', type: 'checkbox' },
  ],
};
const row = (
  over: Partial<Record<'client' | 'witness', Partial<{ name: string; email: string; photo: number }>>> = {},
): BulkRowInput => ({
  signers: [
    { role: 'client', name: 'Ada', email: 'ada@example.com', photo: -1, ...over.client },
    { role: 'witness', name: 'Bob', email: 'bob@example.com', photo: 0, ...over.witness },
  ],
  values: { company: 'ACME' },
});

describe('bulk job shape (400 for the whole job)', () => {
  it('accepts rows that fit the template', () => {
    expect(() => checkBulkShape([row(), row()], tpl, 1)).not.toThrow();
  });
  it('refuses no rows, more than 1,000, an unknown role, a role twice, an unknown field, a missing photo index', () => {
    expect(() => checkBulkShape([], tpl, 0)).toThrow(/at least one row/);
    expect(() =>
      checkBulkShape(
        Array.from({ length: 1001 }, () => row()),
        tpl,
        1,
      ),
    ).toThrow(/at most 1000/);
    const unknownRole = row();
    unknownRole.signers[0]!.role = 'boss';
    expect(() => checkBulkShape([unknownRole], tpl, 1)).toThrow(/"boss" is not a role/);
    const twice = row();
    twice.signers[1]!.role = 'client';
    expect(() => checkBulkShape([row(), twice], tpl, 1)).toThrow(/given twice/);
    expect(() => checkBulkShape([{ ...row(), values: { nope: 'x' } }], tpl, 1)).toThrow(/"nope" is not a field/);
    expect(() => checkBulkShape([row({ witness: { photo: 3 } })], tpl, 1)).toThrow(/photo 3 does not exist/);
  });
  it('refuses a role no row names (a CSV without its columns)', () => {
    const noWitness = { signers: [row().signers[0]!], values: {} };
    expect(() => checkBulkShape([noWitness, noWitness], tpl, 0)).toThrow(/missing columns witness_name and witness_email/);
  });
});

describe('a row of its own problem (that row fails, the others go)', () => {
  it('passes a good row', () => expect(rowProblem(row(), tpl)).toBeNull());
  it('names the column of an invalid e-mail, a missing name, a shared e-mail, a missing or stray photo', () => {
    expect(rowProblem(row({ client: { email: 'not-an-email' } }), tpl)).toMatch(/^client_email: "not-an-email" is not an email/);
    expect(rowProblem(row({ client: { name: '  ' } }), tpl)).toMatch(/^client_name: is required/);
    expect(rowProblem(row({ witness: { email: 'ADA@example.com' } }), tpl)).toMatch(/different email/);
    expect(rowProblem(row({ witness: { photo: -1 } }), tpl)).toMatch(/^witness_photo: .*give one/);
    expect(rowProblem(row({ client: { photo: 0 } }), tpl)).toMatch(/^client_photo: .*takes no photo/);
    expect(rowProblem({ signers: [row().signers[0]!], values: {} }, tpl)).toMatch(/^witness: no signer/);
  });
});

describe('keys', () => {
  it('a row keeps its key and consumption id across resumes, a new consumption id per attempt', () => {
    expect(rowIdempotencyKey('bj_1', 7)).toBe(rowIdempotencyKey('bj_1', 7));
    expect(rowIdempotencyKey('bj_1', 7)).not.toBe(rowIdempotencyKey('bj_1', 8));
    expect(rowConsumptionId('bj_1', 7, 0)).not.toBe(rowConsumptionId('bj_1', 7, 1));
    expect(rowConsumptionId('bj_1', 7, 0)).toMatch(/^[A-Za-z0-9_:.-]{1,128}$/);
  });
  it('a keyed job id depends on owner, mode and key only', () => {
    expect(keyedBulkJobId('u1', false, 'k')).toBe(keyedBulkJobId('u1', false, 'k'));
    expect(keyedBulkJobId('u1', true, 'k')).not.toBe(keyedBulkJobId('u1', false, 'k'));
    expect(keyedBulkJobId('u2', false, 'k')).not.toBe(keyedBulkJobId('u1', false, 'k'));
    expect(keyedBulkJobId('u1', false, 'k')).toMatch(/^bj_[A-Za-z0-9]+$/);
  });
  it('the fingerprint changes with a row, a value or a photo, not with the order of values', () => {
    const a = bulkFingerprint('t', [row()], ['h']);
    expect(bulkFingerprint('t', [{ ...row(), values: { company: 'ACME' } }], ['h'])).toBe(a);
    expect(bulkFingerprint('t', [row({ client: { name: 'Eve' } })], ['h'])).not.toBe(a);
    expect(bulkFingerprint('t', [row()], ['other'])).not.toBe(a);
    expect(bulkFingerprint('t2', [row()], ['h'])).not.toBe(a);
  });
});

it('a checkbox value as text becomes its boolean; other fields keep the text', () => {
  expect(prefillValue('checkbox', 'TRUE')).toBe(true);
  expect(prefillValue('checkbox', 'no')).toBe(false);
  expect(prefillValue('text', 'true')).toBe('true');
});
