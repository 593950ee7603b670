import { describe, expect, it } from 'vitest';
import { openItemsText, rightsSentence, rightsText, toggleRight } from './console-words.ts';

describe('console words', () => {
  it.each([
    [['READ'], 'Read'],
    [['CODE', 'READ'], 'Read, Code'],
    [['CLOSE_BOOKS', 'CODE', 'READ'], 'Read, Code, Close books'],
    [[], 'No access'],
  ] as const)('rights %j read as %s', (rights, text) => {
    expect(rightsText(rights)).toBe(text);
  });

  it('says what a firm will be able to do, and not', () => {
    expect(rightsSentence('Acme', ['READ', 'CODE'])).toBe(
      'Acme will be able to see transactions, bills, receipts and reports and code transactions (GL accounts, memos, receipts). It will not be able to pay bills, move money or change your team.',
    );
    expect(rightsSentence('Acme', ['READ'])).toMatch(/^Acme will be able to see transactions, bills, receipts and reports\./);
  });

  it.each([
    [['READ'], 'CODE', ['READ', 'CODE']],
    [['READ', 'CODE'], 'CODE', ['READ']],
    [['READ', 'CODE'], 'READ', ['READ', 'CODE']],
    [['CLOSE_BOOKS'], 'CODE', ['READ', 'CODE', 'CLOSE_BOOKS']],
  ] as const)('toggling %j with %s keeps READ: %j', (rights, right, want) => {
    expect(toggleRight(rights, right)).toEqual(want);
  });

  it('counts open items in words', () => {
    expect(openItemsText({ uncoded: 3, missing_receipts: 1, unsynced: 0, pending_bills: 2 })).toBe('3 uncoded, 1 missing receipt, 2 bills waiting');
    expect(openItemsText({ uncoded: 0, missing_receipts: 0, unsynced: 0, pending_bills: 0 })).toBe('Nothing open');
    expect(openItemsText({ uncoded: 0, missing_receipts: 2, unsynced: 4, pending_bills: 1 })).toBe('2 missing receipts, 4 not synced, 1 bill waiting');
  });
});
