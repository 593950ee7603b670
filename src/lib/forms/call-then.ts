/** What a worker call answers: done, or the server's refusal. */
export type CallAnswer<E> = { ok: true } | { ok: false; error: E };

/**
 * A confirm dialog's action (`DeleteDialog`'s `onDelete`): the call, then, once it is done,
 * `done` (the page's toast, a reload). Answers the refusal for the dialog to say, or null.
 */
export function callThen<E>(call: () => Promise<CallAnswer<E>>, done: () => void): () => Promise<E | null> {
  return async () => {
    const r = await call();
    if (!r.ok) return r.error;
    done();
    return null;
  };
}
