import { describe, expect, it } from 'vitest';
import { vendorRowsFromCsv } from './vendor-csv.ts';

describe('vendorRowsFromCsv', () => {
  it('reads quoted cells, embedded commas and line breaks, CRLF, a BOM and headers in any case', () => {
    const csv = '\uFEFFName, Postal Code ,city\r\n"Acme, Inc.",02139,"Cam\nbridge"\r\n\r\nPlain Co,,\r\n';
    expect(vendorRowsFromCsv(csv)).toEqual({
      ok: true,
      rows: [{ name: 'Acme, Inc.', postal_code: '02139', city: 'Cam\nbridge' }, { name: 'Plain Co' }],
    });
  });

  it.each([
    ['an unknown column', 'name,iban\nX,DE00', 'Unknown column "iban"'],
    ['a repeated column', 'name,Name\nX,Y', 'appears twice'],
    ['no name column', 'email\na@b.test', 'needs a "name" column'],
    ['a header only', 'name,email\n', 'no vendor rows'],
    ['an unclosed quote', 'name\n"Acme\n', 'could not be read'],
    ['too many rows', `name\n${Array.from({ length: 4 }, (_, i) => `V${i}`).join('\n')}`, 'at most 3'],
  ])('refuses %s as a whole', (_, csv, message) => {
    const result = vendorRowsFromCsv(csv, 3);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain(message);
  });
});
