/**
 * Saves a file the worker fetched (a sync commit's export) under its own name: an object URL on
 * a transient `<a download>`, clicked, then released. A download is not a fetch, a frame or an
 * image, so the app's CSP needs no `blob:` source for it.
 */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The click has handed the URL to the download; release it once that has started.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
