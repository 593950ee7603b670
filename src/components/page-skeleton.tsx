import { Skeleton } from './skeleton.tsx';

export interface PageSkeletonProps {
  /** The page's own h1, so the heading is already in place when the page replaces the skeleton. */
  title: string;
  /** The page's container class (its padding and layout), so nothing moves when it arrives. */
  className: string;
  /** The page's content sits in `.page-narrow` (Settings). */
  narrow?: boolean;
}

/**
 * A page's stand-in while its code loads (lazy routes, lib/lazy-page.tsx): the real heading over
 * shimmering rows, never a spinner. Busy for assistive tech, with "Loading …" said once.
 */
export function PageSkeleton({ title, className, narrow = false }: PageSkeletonProps) {
  const body = (
    <>
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      <span className="sr-only">Loading {title.toLowerCase()}…</span>
      <div className="page-skeleton">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} height={28} />
        ))}
      </div>
    </>
  );
  return (
    <div className={className} aria-busy="true" data-testid="page-skeleton">
      {narrow ? <div className="page-narrow">{body}</div> : body}
    </div>
  );
}
