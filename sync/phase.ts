import type { SyncPhase } from './ports.ts';

/**
 * The engine's phase as a pure reducer (tests walk every row):
 *
 *   idle ──start──▶ pulling/initial ──pull_succeeded──▶ live ──pull_started──▶ pulling …
 *                        │ pull_failed ──▶ error ──pull_started (reconnect)──▶ pulling
 *   any running ──offline──▶ offline ──online──▶ pulling
 *   any running ──unauthorized──▶ signed_out ──start (signed in again)──▶ pulling
 *   any ──stop──▶ idle
 *
 * Events that do not apply (a pull that finishes after going offline) leave the state as is.
 */
export interface EngineState {
  phase: SyncPhase;
  online: boolean;
  lastError: string | null;
}

export type EngineEvent =
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'online' }
  | { type: 'offline' }
  | { type: 'pull_started'; initial: boolean }
  | { type: 'pull_succeeded' }
  | { type: 'pull_failed'; message: string }
  | { type: 'unauthorized' }
  | { type: 'forbidden'; message: string }
  | { type: 'fault'; message: string };

export const initialEngineState: EngineState = { phase: 'idle', online: true, lastError: null };

const RUNNING: ReadonlySet<SyncPhase> = new Set(['initial', 'pulling', 'live', 'error']);

function isRunning(phase: SyncPhase): boolean {
  return RUNNING.has(phase) || phase === 'offline';
}

export function reduceEngine(s: EngineState, e: EngineEvent): EngineState {
  switch (e.type) {
    case 'stop':
      return { ...s, phase: 'idle' };
    case 'online':
      return { ...s, online: true, phase: s.phase === 'offline' ? 'pulling' : s.phase };
    case 'offline':
      return { ...s, online: false, phase: isRunning(s.phase) ? 'offline' : s.phase };
    case 'start':
      if (s.phase !== 'idle' && s.phase !== 'signed_out') return s;
      return { ...s, phase: s.online ? 'pulling' : 'offline', lastError: null };
    case 'fault':
      return { ...s, lastError: e.message };
  }
  if (!RUNNING.has(s.phase)) return s;
  switch (e.type) {
    case 'pull_started':
      return { ...s, phase: e.initial ? 'initial' : 'pulling' };
    case 'pull_succeeded':
      return { ...s, phase: 'live', lastError: null };
    case 'pull_failed':
    case 'forbidden':
      return { ...s, phase: 'error', lastError: e.message };
    case 'unauthorized':
      return { ...s, phase: 'signed_out' };
  }
}
