import { lazy, Suspense } from 'react';
import type { SavedViewList } from '../../../schema/saved-views.ts';

/** The menu's own chunk: list pages mount this one line and load the menu after the page. */
const ViewsMenu = lazy(() => import('./views-menu.tsx').then((m) => ({ default: m.ViewsMenu })));

/** Issue 32: a list's "Views" menu (saved views: apply, save as, share, rename, delete). */
export function SavedViewsBar({ list }: { list: SavedViewList }) {
  return (
    <Suspense fallback={<ViewsTriggerSpace />}>
      <ViewsMenu list={list} />
    </Suspense>
  );
}

/**
 * The trigger's place while the menu's chunk loads (issue 33): with nothing there, the header's
 * row grew by the button's height when it came, moving the whole list down (layout shift on a
 * phone). The same box, inert and hidden from assistive technology, keeps the row as it will be.
 */
function ViewsTriggerSpace() {
  return (
    <div className="saved-views" aria-hidden="true">
      <div className="menu-anchor">
        <button type="button" className="menu-trigger saved-views-trigger" disabled tabIndex={-1}>
          <span className="saved-views-label">Views</span>
          <span>▾</span>
        </button>
      </div>
    </div>
  );
}
