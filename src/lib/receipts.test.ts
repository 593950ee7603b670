import { describe, expect, it } from 'vitest';
import { distinctReceipts, receiptStateText, receiptStateTone } from './receipts.ts';

describe('receipt upload state words', () => {
  it.each([
    [{ state: 'local', error: null }, 'Waiting to upload', 'neutral'],
    [{ state: 'uploading', error: null }, 'Uploading…', 'sync'],
    [{ state: 'uploaded', error: null }, 'Uploaded', 'ok'],
    [{ state: 'failed', error: 'This file type is not supported.' }, 'Upload failed: This file type is not supported.', 'danger'],
    [{ state: 'remote', error: null }, 'Stored on the server', 'ok'],
    [{ state: 'remote', error: 'Not available offline' }, 'Not available offline', 'ok'],
  ] as const)('%j → %s', (view, text, tone) => {
    expect(receiptStateText(view)).toBe(text);
    expect(receiptStateTone(view.state)).toBe(tone);
  });
});

describe('distinctReceipts', () => {
  it('shows a receipt named by its client id and its server id once', () => {
    const views = [{ id: 's', local_id: 'l' }, { id: 'l', local_id: 'l' }, { id: 'r1', local_id: null }, { id: 'r2', local_id: null }];
    expect(distinctReceipts(views).map((v) => v.id)).toEqual(['s', 'r1', 'r2']);
  });
});
