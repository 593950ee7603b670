import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  /**
   * The heading level fits where it sits: h1 for a whole page (404), h2 inside one; 'text' where
   * a heading may not go (inside a grid).
   */
  level?: 1 | 2 | 'text';
  icon?: ReactNode;
  children?: ReactNode;
  /** The way out: a button or link. */
  action?: ReactNode;
}

/** Nothing to show, said plainly, with the next step. */
export function EmptyState({ title, level = 2, icon, children, action }: EmptyStateProps) {
  const Heading = level === 1 ? 'h1' : level === 2 ? 'h2' : 'p';
  return (
    <div className="empty-state">
      {icon && (
        <div className="empty-state-icon" aria-hidden="true">
          {icon}
        </div>
      )}
      <Heading className="empty-state-title">{title}</Heading>
      {children && <div className="empty-state-body">{children}</div>}
      {action}
    </div>
  );
}
