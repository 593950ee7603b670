import { describe, expect, it } from 'vitest';
import { receiptStateText, receiptStateTone } from './receipts.ts';

describe('receipt upload state words', () => {
  it.each([
    [{ state: 'local', error: null }, 'Waiting to upload', 'neutral'],
    [{ state: 'uploading', error: null }, 'Uploading…', 'sync'],
    [{ state: 'uploaded', error: null }, 'Uploaded', 'ok'],
    [{ state: 'failed', error: 'This file type is not supported.' }, 'Upload failed: This file type is not supported.', 'danger'],
    [{ state: 'remote', error: null }, 'Stored on the server', 'ok'],
  ] as const)('%j → %s', (view, text, tone) => {
    expect(receiptStateText(view)).toBe(text);
    expect(receiptStateTone(view.state)).toBe(tone);
  });
});
