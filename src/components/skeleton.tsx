import type { CSSProperties } from 'react';

/** A placeholder bar while content loads; hidden from assistive tech (say "Loading…" elsewhere). */
export function Skeleton({ width, height, className }: { width?: CSSProperties['width']; height?: CSSProperties['height']; className?: string }) {
  return <span className={['skeleton', className].filter(Boolean).join(' ')} style={{ width, height }} aria-hidden="true" />;
}
