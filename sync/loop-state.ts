/**
 * The state of a background loop (the outbox's delivery loop, the puller's live loop), explicit
 * instead of spread over flags, and changed only by `nextLoopState` (every arrow is a test row):
 *
 *   idle ──start──▶ running ──wait{until}──▶ waiting-retry{until} ──start (woken)──▶ running
 *    ▲                 │ done                                        │
 *    └──────────────────┘◀───────────────────done──────────────────────┘
 *   any but stopped ──pause{reason}──▶ paused{reason} ──resume──▶ idle (then a kick starts it)
 *   any ──stop──▶ stopped ──start──▶ running (a new run, e.g. live() called again)
 *
 * While paused, only `resume`, another `pause` (the newest reason wins) and `stop` count: a
 * kick or a late `wait` / `done` of the run being paused changes nothing.
 */
export type PauseReason = 'not_started' | 'stopped' | 'offline' | 'unauthorized' | 'forbidden';

export type LoopState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'waiting-retry'; until: number }
  | { kind: 'paused'; reason: PauseReason }
  | { kind: 'stopped' };

export type LoopEvent =
  | { type: 'start' }
  | { type: 'wait'; until: number }
  | { type: 'done' }
  | { type: 'pause'; reason: PauseReason }
  | { type: 'resume' }
  | { type: 'stop' };

export const IDLE: LoopState = { kind: 'idle' };

export function nextLoopState(state: LoopState, event: LoopEvent): LoopState {
  if (event.type === 'stop') return { kind: 'stopped' };
  if (state.kind === 'paused') {
    if (event.type === 'resume') return IDLE;
    if (event.type === 'pause') return event.reason === state.reason ? state : { kind: 'paused', reason: event.reason };
    return state;
  }
  switch (event.type) {
    case 'pause':
      return state.kind === 'stopped' ? state : { kind: 'paused', reason: event.reason };
    case 'resume':
      return state;
    case 'start':
      return state.kind === 'running' ? state : { kind: 'running' };
    case 'wait':
      return state.kind === 'running' || state.kind === 'waiting-retry' ? { kind: 'waiting-retry', until: event.until } : state;
    case 'done':
      return state.kind === 'running' || state.kind === 'waiting-retry' ? IDLE : state;
  }
}
