import type { SpendRequestType } from '../../../schema/entities/spend-request.ts';

const PATHS: Record<SpendRequestType, string> = {
  GENERAL_EXPENSE: 'M2 4.5h12v8H2zM2 7h12M10.5 10h2',
  PRODUCT_OR_SERVICE: 'M2 5.5 8 2.5l6 3v6l-6 3-6-3zM2 5.5l6 3 6-3M8 8.5v6',
  PHYSICAL_CARD: 'M1.5 3.5h13v9h-13zM1.5 6.5h13M3.5 10h3',
};

/** A request type's glyph (decorative: its words are always beside it). */
export function RequestTypeIcon({ type, size = 16 }: { type: SpendRequestType; size?: number }) {
  return (
    <svg className="request-icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[type]} fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
    </svg>
  );
}
