import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { SAVED_VIEW_LIST_PATHS, viewStateOf, type SavedView, type SavedViewList } from '../../../schema/saved-views.ts';
import { DeleteDialog } from '../confirm-dialog.tsx';
import { Menu, MenuGroup, MenuItem } from '../menu.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { SaveViewDialog } from './save-view-dialog.tsx';
import { AUDIENCE, appliedOf, readApplied, searchWithView, writeApplied } from './view-state.ts';
import '../../styles/saved-views.css';

type Dialog = { kind: 'create' } | { kind: 'edit'; view: SavedView } | { kind: 'delete'; view: SavedView } | null;
const OFFLINE_SAVE = 'You’re offline. Saving or changing a view needs a connection.';

/** What the menu says above its items: a refusal, the offline copy, loading, or none saved yet. */
function menuNote(failure: string | null, fromCache: boolean, views: readonly SavedView[] | null) {
  const text = failure ?? (fromCache ? 'You’re offline: these are the views from your last visit.'
    : views === null ? 'Loading views…'
      : views.length === 0 ? 'No saved views yet. Filter the list, then save it here to come back in one click.' : null);
  return text && <p className="menu-note" role="status">{text}</p>;
}

/** The list's saved views, read again when the connection comes back (the cached copy is replaced by the server's). */
function useSavedViews(list: SavedViewList, online: boolean) {
  const client = useDataClient();
  const [views, setViews] = useState<SavedView[] | null>(null);
  const [fromCache, setFromCache] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const answer = useCallback((r: Awaited<ReturnType<typeof client.savedViews>>) => {
    if (r.ok) {
      setViews(r.views);
      setFromCache(r.fromCache);
      setFailure(null);
    } else setFailure(errorText(r.error));
  }, [client]);
  const load = useCallback(async () => answer(await client.savedViews(list)), [client, list, answer]);
  useEffect(() => {
    let live = true;
    void client.savedViews(list).then((r) => {
      if (live) answer(r);
    });
    return () => {
      live = false;
    };
  }, [client, list, answer, online]);

  return { views, fromCache, failure, load };
}

/**
 * A list's Views menu (issue 32): the caller's views and those shared with them, applied in one
 * choice (the list's URL search is replaced; the lists are mirrored, so this works offline from
 * the views read last time); save the current filters as a view; update, rename, share or delete
 * the applied one (deleting asks first). The trigger names the applied view, and "modified" once
 * the filters drift from it.
 */
export function ViewsMenu({ list }: { list: SavedViewList }) {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const navigate = useNavigate();
  const { views, fromCache, failure, load } = useSavedViews(list, online);
  const [appliedId, setAppliedId] = useState<string | null>(() => readApplied(list));
  const [dialog, setDialog] = useState<Dialog>(null);

  const applied = appliedOf(list, views ?? [], appliedId, search);
  const choose = (id: string | null) => {
    setAppliedId(id);
    writeApplied(list, id);
  };
  const apply = (view: SavedView) => {
    choose(view.id);
    void navigate({ to: SAVED_VIEW_LIST_PATHS[list], search: searchWithView(list, search, view) as never });
  };
  const save = async (id: string, name: string, shared: boolean, state = viewStateOf(list, search)): Promise<string | null> => {
    const r = await client.saveView(id, { list, name, state, shared });
    if (!r.ok) return errorText(r.error);
    choose(r.view.id);
    await load();
    return null;
  };

  const mine = (views ?? []).filter((v) => v.mine);
  const shared = (views ?? []).filter((v) => !v.mine);
  const item = (v: SavedView) => (
    <MenuItem key={v.id} onSelect={() => apply(v)} current={v.id === appliedId}>
      <span className="saved-view-name">{v.name}</span>
      {v.mine && v.shared && <span className="saved-view-note">Shared</span>}
      {!v.mine && <span className="saved-view-note">{v.owner_name}</span>}
    </MenuItem>
  );
  const view = applied?.view;
  return (
    <div className="saved-views">
      <Menu
        label="Saved views"
        triggerClassName="menu-trigger saved-views-trigger"
        trigger={
          <>
            <span className="saved-views-label">{view ? view.name : 'Views'}</span>
            {applied?.modified && <span className="saved-views-modified">modified</span>}
            <span aria-hidden="true">▾</span>
          </>
        }
        header={menuNote(failure, fromCache, views)}
      >
        {mine.length > 0 && <MenuGroup label="Your views">{mine.map(item)}</MenuGroup>}
        {shared.length > 0 && <MenuGroup label="Shared with you">{shared.map(item)}</MenuGroup>}
        <MenuGroup label="Actions">
          <MenuItem disabled={!online} onSelect={() => setDialog({ kind: 'create' })}>
            {online ? 'Save current view as…' : OFFLINE_SAVE}
          </MenuItem>
          {view?.mine && applied?.modified && (
            <MenuItem disabled={!online} onSelect={() => void save(view.id, view.name, view.shared).then((e) => toastInfo(e ?? `“${view.name}” updated.`))}>
              Update “{view.name}” with these filters
            </MenuItem>
          )}
          {view?.mine && (
            <MenuItem disabled={!online} onSelect={() => setDialog({ kind: 'edit', view })}>
              Rename or share…
            </MenuItem>
          )}
          {view?.can_delete && (
            <MenuItem disabled={!online} onSelect={() => setDialog({ kind: 'delete', view })}>
              Delete view…
            </MenuItem>
          )}
          {view && <MenuItem onSelect={() => choose(null)}>Stop showing “{view.name}”</MenuItem>}
        </MenuGroup>
      </Menu>
      {dialog?.kind === 'create' && (
        <SaveViewDialog mode="create" initialName="" initialShared={false} audience={AUDIENCE[list]} onClose={() => setDialog(null)}
          onSave={(name, isShared) => save(crypto.randomUUID(), name, isShared)} />
      )}
      {dialog?.kind === 'edit' && (
        <SaveViewDialog mode="edit" initialName={dialog.view.name} initialShared={dialog.view.shared} audience={AUDIENCE[list]}
          onClose={() => setDialog(null)} onSave={(name, isShared) => save(dialog.view.id, name, isShared, dialog.view.state)} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete “${dialog.view.name}”?`}
          description={dialog.view.shared ? 'It is shared: it disappears for everyone it was shared with. The list itself is not changed.' : 'The list itself is not changed.'}
          confirmLabel="Delete view"
          onClose={() => setDialog(null)}
          onDelete={async () => {
            const r = await client.deleteView(dialog.view.id);
            if (!r.ok) return r.error;
            if (appliedId === dialog.view.id) choose(null);
            await load();
            return null;
          }}
        />
      )}
    </div>
  );
}
