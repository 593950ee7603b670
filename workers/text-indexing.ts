/** ≈ 20 ms of tokenizing and indexing: what a query or a command may wait behind. */
const INDEX_SLICE = 1_000;

/** An engine with rows waiting for its text index (QueryEngine). */
interface Backlogged {
  readonly searchBacklog: number;
  indexSome(n: number): void;
}

export interface TextIndexingDeps {
  /** The engines in load order: the first with a backlog is indexed first. */
  engines: () => readonly Backlogged[];
  /** Work that goes first (feed batches being written, commands in progress): resolves when it is done, or null when there is none. */
  busy: () => Promise<unknown> | null;
  closed: () => boolean;
  defer: (fn: () => void) => void;
}

/**
 * Moves the text-index backlog into the trigram index a slice at a time, never blocking a query
 * for long. Feed batches and commands in progress go first: during a first mirror the slices run
 * in the gaps between writes (waiting on the network) instead of delaying them, and a bulk coding
 * answers before its 10,000 rows are re-indexed; queries verify unindexed rows meanwhile.
 */
export function textIndexing(deps: TextIndexingDeps): () => void {
  let running = false;
  const { defer } = deps;
  const withBacklog = () => deps.engines().find((e) => e.searchBacklog > 0);
  const step = () => {
    if (deps.closed()) return;
    const busy = deps.busy();
    if (busy) {
      void busy.then(() => defer(step));
      return;
    }
    withBacklog()?.indexSome(INDEX_SLICE);
    if (withBacklog()) defer(step);
    else running = false;
  };
  return () => {
    if (running || !withBacklog()) return;
    running = true;
    defer(step);
  };
}
