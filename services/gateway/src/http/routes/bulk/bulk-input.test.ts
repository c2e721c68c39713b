import { describe, expect, it } from 'vitest';
import { csvRows, jsonRows, parseCsv } from './bulk-input.js';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, CRLF and LF, a BOM, and skips blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, ""y""",2\n\nlast,\n')).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
      ['last', ''],
    ]);
    expect(parseCsv('a\n"multi\nline"')).toEqual([['a'], ['multi\nline']]);
  });
  it('refuses an unclosed quote', () => expect(() => parseCsv('a\n"open')).toThrow(/not closed/));
});

describe('csvRows', () => {
  it('maps role columns to signers and value_ columns to values', () => {
    const r = csvRows('client_name,client_email,value_company\nAda,ada@example.com,ACME\n');
    expect(r.rows).toEqual([
      { signers: [{ role: 'client', name: 'Ada', email: 'ada@example.com', photo: -1 }], values: { company: 'ACME' } },
    ]);
  });
  it('a missing column is a 400 naming it; so is an unknown or repeated column and a row longer than the header', () => {
    expect(() => csvRows('client_name,value_x\nAda,1\n')).toThrow(/missing column client_email/);
    expect(() => csvRows('client_email\nada@example.com\n')).toThrow(/missing column client_name/);
    expect(() => csvRows('value_x\n1\n')).toThrow(/missing columns/);
    expect(() => csvRows('client_name,client_email,company\nAda,a@b.co,x\n')).toThrow(/column "company" is neither/);
    expect(() => csvRows('client_name,client_email,client_name\n')).toThrow(/appears twice/);
    expect(() => csvRows('client_name,client_email\nAda,a@b.co,extra\n')).toThrow(/line 2: 3 fields/);
    expect(() => csvRows('')).toThrow(/header line is missing/);
  });
  it('keeps a bad e-mail for the service to report on its row', () => {
    expect(csvRows('client_name,client_email\nAda,nope\n').rows[0]!.signers[0]!.email).toBe('nope');
  });
  it('refuses more than 1,000 rows', () => {
    expect(() => csvRows(`client_name,client_email\n${'A,a@b.co\n'.repeat(1001)}`)).toThrow(/at most 1000/);
  });
  it('gives each distinct photo once', () => {
    const p = Buffer.from('photo-bytes').toString('base64');
    const r = csvRows(`a_name,a_email,a_photo\nA,a@b.co,${p}\nB,b@b.co,${p}\nC,c@b.co,\n`);
    expect(r.photos).toHaveLength(1);
    expect(r.rows.map((x) => x.signers[0]!.photo)).toEqual([0, 0, -1]);
  });
});

it('jsonRows: signers by role, values as text, data-URL photos', () => {
  const photo = `data:image/png;base64,${Buffer.from('png').toString('base64')}`;
  const r = jsonRows({
    rows: [{ signers: { client: { name: 'Ada', email: 'ada@example.com', photo } }, values: { agree: true } }],
  });
  expect(r.rows[0]).toEqual({
    signers: [{ role: 'client', name: 'Ada', email: 'ada@example.com', photo: 0 }],
    values: { agree: 'true' },
  });
  expect(r.photos[0]!.toString()).toBe('png');
  expect(() => jsonRows({ rows: [{ signers: { c: { name: 'A', email: 'a@b.co', photo: '%%%' } } }] })).toThrow(/base64/);
});
