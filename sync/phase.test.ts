import { describe, expect, it } from 'vitest';
import { reduceEngine, type EngineEvent, type EngineState } from './phase.ts';
import type { SyncPhase } from './ports.ts';

const E: Record<EngineEvent['type'], EngineEvent> = {
  start: { type: 'start' },
  stop: { type: 'stop' },
  online: { type: 'online' },
  offline: { type: 'offline' },
  pull_started: { type: 'pull_started', initial: false },
  pull_succeeded: { type: 'pull_succeeded' },
  pull_failed: { type: 'pull_failed', message: 'down' },
  unauthorized: { type: 'unauthorized' },
  forbidden: { type: 'forbidden', message: 'no scope' },
  fault: { type: 'fault', message: 'disk full' },
};
const PHASES: SyncPhase[] = ['idle', 'initial', 'pulling', 'live', 'offline', 'signed_out', 'error'];
const at = (phase: SyncPhase, online = phase !== 'offline'): EngineState => ({ phase, online, lastError: null });

/** [from, event, to]; every (phase, event) pair appears exactly once. */
const TABLE: [SyncPhase, EngineEvent['type'], SyncPhase][] = [
  ...PHASES.map((p): [SyncPhase, EngineEvent['type'], SyncPhase] => [p, 'stop', 'idle']),
  ...PHASES.map((p): [SyncPhase, EngineEvent['type'], SyncPhase] => [p, 'fault', p]),
  ['idle', 'start', 'pulling'], ['signed_out', 'start', 'pulling'],
  ...(['initial', 'pulling', 'live', 'offline', 'error'] as const).map((p): [SyncPhase, EngineEvent['type'], SyncPhase] => [p, 'start', p]),
  ['offline', 'online', 'pulling'],
  ...(['idle', 'initial', 'pulling', 'live', 'signed_out', 'error'] as const).map((p): [SyncPhase, EngineEvent['type'], SyncPhase] => [p, 'online', p]),
  ...(['initial', 'pulling', 'live', 'error', 'offline'] as const).map((p): [SyncPhase, EngineEvent['type'], SyncPhase] => [p, 'offline', 'offline']),
  ['idle', 'offline', 'idle'], ['signed_out', 'offline', 'signed_out'],
  ...(['initial', 'pulling', 'live', 'error'] as const).flatMap((p): [SyncPhase, EngineEvent['type'], SyncPhase][] => [
    [p, 'pull_started', 'pulling'],
    [p, 'pull_succeeded', 'live'],
    [p, 'pull_failed', 'error'],
    [p, 'forbidden', 'error'],
    [p, 'unauthorized', 'signed_out'],
  ]),
  ...(['idle', 'offline', 'signed_out'] as const).flatMap((p): [SyncPhase, EngineEvent['type'], SyncPhase][] =>
    (['pull_started', 'pull_succeeded', 'pull_failed', 'forbidden', 'unauthorized'] as const).map((e) => [p, e, p]),
  ),
];

describe('reduceEngine', () => {
  it('has exactly one row per phase and event', () => {
    expect(TABLE).toHaveLength(PHASES.length * Object.keys(E).length);
    expect(new Set(TABLE.map(([p, e]) => `${p}/${e}`)).size).toBe(TABLE.length);
  });

  it.each(TABLE)('%s --%s--> %s', (from, event, to) => {
    expect(reduceEngine(at(from), E[event]).phase).toBe(to);
  });

  it('enters initial for a first mirror', () => {
    expect(reduceEngine(at('pulling'), { type: 'pull_started', initial: true }).phase).toBe('initial');
  });

  it('starts offline when the page is offline', () => {
    const s = reduceEngine({ phase: 'idle', online: false, lastError: null }, E.start);
    expect(s).toEqual({ phase: 'offline', online: false, lastError: null });
  });

  it('tracks the online flag even while idle', () => {
    expect(reduceEngine(at('idle'), E.offline).online).toBe(false);
    expect(reduceEngine(at('offline'), E.online).online).toBe(true);
  });

  it('keeps the last error until a pull succeeds or the engine restarts', () => {
    const failed = reduceEngine(at('live'), E.pull_failed);
    expect(failed.lastError).toBe('down');
    expect(reduceEngine(failed, E.pull_started).lastError).toBe('down');
    expect(reduceEngine(failed, E.pull_succeeded).lastError).toBeNull();
    expect(reduceEngine(at('live'), E.fault)).toMatchObject({ phase: 'live', lastError: 'disk full' });
  });
});
