/** Moved down to `lib/claim-labels.ts` (the approvals inbox shows claims too); kept for this feature's imports. */
export * from '../../lib/claim-labels.ts';
