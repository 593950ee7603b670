/** Moved down to `components/claim-icon.tsx` (the approvals inbox shows claims too); kept for this feature's imports. */
export { ClaimIcon } from '../../components/claim-icon.tsx';
