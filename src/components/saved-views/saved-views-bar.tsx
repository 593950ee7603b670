import { lazy, Suspense } from 'react';
import type { SavedViewList } from '../../../schema/saved-views.ts';

/** The menu's own chunk: list pages mount this one line and load the menu after the page. */
const ViewsMenu = lazy(() => import('./views-menu.tsx').then((m) => ({ default: m.ViewsMenu })));

/** Issue 32: a list's "Views" menu (saved views: apply, save as, share, rename, delete). */
export function SavedViewsBar({ list }: { list: SavedViewList }) {
  return (
    <Suspense fallback={null}>
      <ViewsMenu list={list} />
    </Suspense>
  );
}
