import { describe, expect, it } from 'vitest';
import { cardTextColor, checkCardLogo, imageSize } from './card-branding.ts';
import { jpegOf, pngOf } from './card-branding-fixtures.ts';

describe('card logo checks', () => {
  it('reads PNG and JPEG sizes from their headers', () => {
    expect(imageSize('image/png', pngOf(300, 90))).toEqual({ width: 300, height: 90 });
    expect(imageSize('image/jpeg', jpegOf(1024, 33))).toEqual({ width: 1024, height: 33 });
    expect(imageSize('image/png', pngOf(1, 1).subarray(0, 20))).toBeNull();
    expect(imageSize('image/jpeg', new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });

  it('accepts a PNG or JPEG within bounds; refuses SVG, markup, mislabelled files and sizes out of bounds', () => {
    expect(checkCardLogo('image/png', pngOf(200, 60))).toEqual({ ok: true, contentType: 'image/png', width: 200, height: 60 });
    expect(checkCardLogo('image/jpeg', jpegOf(2048, 32))).toMatchObject({ ok: true });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(checkCardLogo('image/png', svg)).toMatchObject({ ok: false, code: 'UPLOAD_7105' });
    expect(checkCardLogo('image/jpeg', pngOf(200, 60))).toMatchObject({ ok: false, code: 'UPLOAD_7102' });
    expect(checkCardLogo('image/png', pngOf(31, 200))).toMatchObject({ ok: false, code: 'REQUEST_7001' });
    expect(checkCardLogo('image/png', pngOf(2049, 200))).toMatchObject({ ok: false, code: 'REQUEST_7001' });
  });
});

describe('cardTextColor', () => {
  it('white on dark colours, dark on light ones', () => {
    expect(cardTextColor('#1f2937')).toBe('#ffffff');
    expect(cardTextColor('#0a7b5c')).toBe('#ffffff');
    expect(cardTextColor('#ffffff')).toBe('#111827');
    expect(cardTextColor('#fde047')).toBe('#111827');
  });
});
