import type { CSSProperties } from 'react';

/** A placeholder bar while content loads; hidden from assistive tech (say "Loading…" elsewhere). */
export function Skeleton({ width, height, className }: { width?: CSSProperties['width']; height?: CSSProperties['height']; className?: string }) {
  return <span className={['skeleton', className].filter(Boolean).join(' ')} style={{ width, height }} aria-hidden="true" />;
}

/** A list's rows while it loads: six bars, and "Loading {what}…" for assistive tech. */
export function ListSkeleton({ what }: { what: string }) {
  return (
    <div className="claim-skeleton" aria-busy="true">
      <span className="sr-only">Loading {what}…</span>
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} height={28} />
      ))}
    </div>
  );
}
