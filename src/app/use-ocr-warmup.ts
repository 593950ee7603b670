import { useEffect } from 'react';
import { useAppState } from '../data-access/data-context.tsx';

/** Once per page: the engine is cached by the service worker, so later pages find it there. */
let warmed = false;

/**
 * Makes receipt OCR work offline from the first scan: once the first mirror is complete and the
 * page is online, in an idle moment, the OCR engine and its model (~4 MB, cached by the service
 * worker, not precached at install) are fetched through the service worker. A person who lands
 * abroad with no network can then still have a receipt read. A failed fetch is tried again on the
 * next page load; the first online scan also caches them.
 */
export function useOcrWarmup(): void {
  const ready = useAppState((s) => s.online && s.status?.mirrored === true && (s.status?.online ?? true));
  useEffect(() => {
    if (!ready || warmed || !('serviceWorker' in navigator) || !navigator.serviceWorker.controller) return;
    const run = () => {
      if (warmed) return;
      warmed = true;
      void import('../lib/receipt-ocr/ocr-prefetch.ts')
        .then((m) => m.prefetchReceiptOcr())
        .catch(() => {
          warmed = false;
        });
    };
    const idle = window.requestIdleCallback?.(run, { timeout: 10_000 }) ?? window.setTimeout(run, 2_000);
    return () => {
      if (window.cancelIdleCallback) window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, [ready]);
}
