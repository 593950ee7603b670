/**
 * Receipt OCR's prefetch, run off the page's thread (issue 33). Fetching the engine and model
 * (~6 MB) from the page delivered every body chunk to the main thread: on a phone's CPU that was
 * four 200–250 ms tasks while the transactions page loaded, most of its total blocking time. A
 * dedicated worker is controlled by the page's service worker, so its fetches fill the same OCR
 * cache (workers/service-worker/sw.ts); the bodies are drained here and never kept.
 *
 * Protocol: the page posts the URLs; the worker answers `true` once every one was read whole,
 * `false` if any failed (the page tries again on its next load).
 */
async function drain(url: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  await res.body.pipeTo(new WritableStream());
}

globalThis.addEventListener('message', (event: MessageEvent<unknown>) => {
  const urls = Array.isArray(event.data) ? event.data.filter((u): u is string => typeof u === 'string') : [];
  void Promise.all(urls.map(drain)).then(
    () => globalThis.postMessage(true),
    () => globalThis.postMessage(false),
  );
});
