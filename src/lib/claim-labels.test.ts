import { describe, expect, it } from 'vitest';
import { claimDescription, claimTimeline, STATUS_LABELS } from './claim-labels.ts';
import { WAITING_TO_SYNC } from '../components/sync-mark.tsx';

const base = { merchant: null, memo: null, start_location: null, end_location: null, location: null };

describe('claimDescription', () => {
  it.each([
    [{ ...base, type: 'OUT_OF_POCKET' as const, merchant: 'Blue Bottle' }, 'Blue Bottle'],
    [{ ...base, type: 'OUT_OF_POCKET' as const, memo: 'Coffee' }, 'Coffee'],
    [{ ...base, type: 'MILEAGE' as const, start_location: 'Office', end_location: 'Airport' }, 'Office → Airport'],
    [{ ...base, type: 'PER_DIEM' as const, location: 'Chicago' }, 'Chicago'],
  ])('%j → %s', (c, text) => {
    expect(claimDescription(c)).toBe(text);
  });
});

describe('claimTimeline', () => {
  const at = { created_at: '2026-03-01T10:00:00Z', submitted_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-05T10:00:00Z', rejection_reason: null };
  it.each([
    ['DRAFT' as const, { submitted_at: null }, ['Created']],
    ['SUBMITTED' as const, {}, ['Created', 'Submitted']],
    ['APPROVED' as const, {}, ['Created', 'Submitted', 'Approved']],
    ['PAID' as const, {}, ['Created', 'Submitted', 'Approved', 'Paid']],
    ['CANCELED' as const, {}, ['Created', 'Submitted', 'Canceled']],
  ])('%s', (status, over, labels) => {
    expect(claimTimeline({ ...at, ...over, status }).map((s) => s.label)).toEqual(labels);
  });

  it('gives a rejection its reason', () => {
    expect(claimTimeline({ ...at, status: 'REJECTED', rejection_reason: 'No receipt' }).at(-1)).toEqual({ label: 'Rejected', at: at.updated_at, detail: 'No receipt' });
  });
});

it('keeps claim status words apart from the sync words', () => {
  for (const word of Object.values(STATUS_LABELS)) expect([WAITING_TO_SYNC, 'Failed', 'Needs verification', 'Pending']).not.toContain(word);
});
