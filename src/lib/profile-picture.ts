import { useEffect, useSyncExternalStore } from 'react';
import { createStore } from '../data-access/store.ts';
import type { DataClient } from '../data-access/types.ts';
import { rememberLanding } from './landing-page.ts';

/**
 * Issue 32: the signed-in person's picture, shared by the user menu and Settings → Profile (and,
 * read at the same moment, their start page). The
 * picture is fetched through the worker (the API needs the session's header, so an <img src> to
 * it cannot work) and shown from an object URL; a new picture (new hash) replaces it.
 */
type PictureState = { userId: string | null; sha256: string | null; url: string | null };
const store = createStore<PictureState>({ userId: null, sha256: null, url: null });
let loading: string | null = null;

function replace(next: PictureState): void {
  const prev = store.get().url;
  store.set(next);
  if (prev && prev !== next.url) URL.revokeObjectURL(prev);
}

/** After a save: the settings' picture (or none) becomes the one shown. */
export async function showPicture(client: DataClient, userId: string, picture: { sha256: string } | null): Promise<void> {
  if (!picture) return replace({ userId, sha256: null, url: null });
  if (store.get().userId === userId && store.get().sha256 === picture.sha256 && store.get().url) return;
  const r = await client.profilePicture(userId, picture.sha256);
  if (r.ok) replace({ userId, sha256: picture.sha256, url: URL.createObjectURL(r.file) });
}

/** The person's picture URL (object URL) or null: loaded once per person while online. */
export function useMyPicture(client: DataClient, userId: string | null, online: boolean): string | null {
  const state = useSyncExternalStore(store.subscribe, store.get, store.get);
  useEffect(() => {
    if (!userId || !online || state.userId === userId || loading === userId) return;
    loading = userId;
    void client.userSettings().then(async (r) => {
      if (r.ok) await showPicture(client, userId, r.settings.picture);
      else if (!('offline' in r && r.offline)) replace({ userId, sha256: null, url: null });
      // The start page too, so this device opens it at `/` (lib/landing-page.ts) without a visit to Settings.
      const prefs = await client.userPreferences();
      if (prefs.ok) rememberLanding(localStorage, prefs.preferences.landing_page);
    }).finally(() => { loading = null; });
  }, [client, userId, online, state.userId]);
  return state.userId === userId ? state.url : null;
}
