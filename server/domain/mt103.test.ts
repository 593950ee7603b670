import { describe, expect, it } from 'vitest';
import { swiftAmount, toSwiftX, wireReference, wrapX } from './mt103.ts';
import { maskDigits, xmlText } from './check-image.ts';

describe('MT103 text rules', () => {
  it.each([
    ['Café Ümlaut & Söhne', 'Cafe Umlaut + Sohne'],
    ['ACME_CORP #12 "best"', "ACME-CORP 12 'best'"],
    ['<script>alert(1)</script>', 'scriptalert(1)/script'],
    ['北京 Trading', 'Trading'],
    ['a\tb\nc', 'a bc'],
  ])('%s → the X character set', (input, out) => {
    expect(toSwiftX(input)).toBe(out);
    expect(toSwiftX(input)).toMatch(/^[A-Za-z0-9/\-?:().,'+ ]*$/);
  });

  it('wraps at 35 characters, cuts a long word, keeps at most the lines asked, never starts a line with : or -', () => {
    const lines = wrapX(`${'x'.repeat(50)} alpha beta gamma delta epsilon zeta eta theta iota kappa`, 3);
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(35);
    expect(lines[0]).toBe('x'.repeat(35));
    expect(wrapX(':20:fake -} end', 4).every((l) => !/^[:-]/.test(l))).toBe(true);
  });

  it('writes amounts with a decimal comma', () => {
    expect(swiftAmount(123_456, 'USD')).toBe('1234,56');
    expect(swiftAmount(5, 'USD')).toBe('0,05');
    expect(swiftAmount(1_500, 'JPY')).toBe('1500,');
  });

  it('makes a 16-character reference from the payment id', () => {
    expect(wireReference('0f1e2d3c-4b5a-6978-8a9b-acbdcedf0011')).toBe('LL0F1E2D3C4B5A69');
  });

  it('masks all digits but the last four, and escapes XML text', () => {
    expect(maskDigits('4401927731')).toBe('XXXXXX7731');
    expect(maskDigits('123')).toBe('123');
    expect(xmlText(`<a href="x">&'\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
  });
});
