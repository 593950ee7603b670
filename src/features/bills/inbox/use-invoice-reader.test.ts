import { describe, expect, it } from 'vitest';
import { readable } from './use-invoice-reader.ts';

const file = (type: string) => new File(['x'], 'invoice', { type });

describe('which inbox files are read on this device', () => {
  it('reads images and PDFs (their text layer or scanned pages), not HEIC or other files', () => {
    expect(readable(file('application/pdf'))).toBe(true);
    expect(readable(file('image/png'))).toBe(true);
    expect(readable(file('image/jpeg'))).toBe(true);
    expect(readable(file('image/heic'))).toBe(false);
    expect(readable(file('image/heif'))).toBe(false);
    expect(readable(file('text/plain'))).toBe(false);
  });
});
