import { Link } from '@tanstack/react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { buttonClass } from '../components/button.tsx';
import { HOME_PATH } from '../lib/redirect.ts';

/** An unknown address inside the signed-in shell: say so, and offer the way back. */
export function NotFoundPage() {
  return (
    <div className="page">
      <EmptyState
        level={1}
        icon="404"
        title="Page not found"
        action={
          <Link to={HOME_PATH} className={buttonClass({ variant: 'primary' })}>
            Go to transactions
          </Link>
        }
      >
        <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      </EmptyState>
    </div>
  );
}
