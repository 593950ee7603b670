import type { ReimbursementType } from '../../schema/entities/reimbursement.ts';

/** A small glyph per claim type (decorative: the type's name is always beside it, or sr-only). */
export function ClaimIcon({ type, size = 16 }: { type: ReimbursementType; size?: number }) {
  return (
    <svg className="claim-icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {type === 'OUT_OF_POCKET' && (
        // A receipt with a torn bottom edge.
        <path d="M4 1.5h8v13l-2-1.2-2 1.2-2-1.2-2 1.2zM6 5h4M6 8h4M6 11h2" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
      )}
      {type === 'MILEAGE' && (
        // A car seen from the side.
        <path d="M2 10.5V8l1.6-3.5h8.8L14 8v2.5zM2 10.5h12M4.5 12.5a1 1 0 1 0 0-.01M11.5 12.5a1 1 0 1 0 0-.01M3 8h10" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
      )}
      {type === 'PER_DIEM' && (
        // A calendar page.
        <path d="M2.5 3.5h11v10h-11zM2.5 6.5h11M5 2v3M11 2v3M5 9h2M9 9h2M5 11.5h2" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
      )}
    </svg>
  );
}
