import { useEffect, useState } from 'react';

/** How long typing waits before the URL catches up (the query itself runs on every keystroke). */
export const URL_WRITE_DELAY_MS = 250;

/**
 * A list's search box text: local state, so every keystroke queries at once; the URL follows a
 * moment later (through `writeUrl`, a replace), and a URL change from elsewhere (back button)
 * wins; a write still waiting when the user navigates elsewhere is dropped. Shared by the lists.
 */
export function useInstantSearch(urlQ: string | undefined, writeUrl: (q: string | undefined) => void): [string, (q: string) => void] {
  const [q, setQ] = useState(urlQ ?? '');
  const [seenUrlQ, setSeenUrlQ] = useState(urlQ);
  // What we wrote ourselves: its echo from the router must not undo keystrokes typed since.
  const [written, setWritten] = useState<string | undefined>(urlQ);
  if (seenUrlQ !== urlQ) {
    setSeenUrlQ(urlQ);
    if (urlQ !== written && (urlQ ?? '') !== q) setQ(urlQ ?? '');
  }
  useEffect(() => {
    if ((urlQ ?? '') === q) return;
    // The router commits a navigation's URL at once but keeps this page mounted while the next
    // one loads: a write landing then would navigate back here. Left the page: drop it.
    const path = window.location.pathname;
    const t = setTimeout(() => {
      if (window.location.pathname !== path) return;
      setWritten(q || undefined);
      writeUrl(q || undefined);
    }, URL_WRITE_DELAY_MS);
    return () => clearTimeout(t);
  }, [q, urlQ, writeUrl]);
  return [q, setQ];
}
