import { describe, expect, it } from 'vitest';
import { IDLE, nextLoopState, type LoopEvent, type LoopState } from './loop-state.ts';

const running: LoopState = { kind: 'running' };
const waiting: LoopState = { kind: 'waiting-retry', until: 500 };
const paused: LoopState = { kind: 'paused', reason: 'offline' };
const stopped: LoopState = { kind: 'stopped' };

/** Every state × every event: [from, event, to]. */
const TABLE: [LoopState, LoopEvent, LoopState][] = [
  [IDLE, { type: 'start' }, running],
  [IDLE, { type: 'wait', until: 9 }, IDLE],
  [IDLE, { type: 'done' }, IDLE],
  [IDLE, { type: 'pause', reason: 'not_started' }, { kind: 'paused', reason: 'not_started' }],
  [IDLE, { type: 'resume' }, IDLE],
  [IDLE, { type: 'stop' }, stopped],

  [running, { type: 'start' }, running],
  [running, { type: 'wait', until: 500 }, waiting],
  [running, { type: 'done' }, IDLE],
  [running, { type: 'pause', reason: 'unauthorized' }, { kind: 'paused', reason: 'unauthorized' }],
  [running, { type: 'resume' }, running],
  [running, { type: 'stop' }, stopped],

  [waiting, { type: 'start' }, running],
  [waiting, { type: 'wait', until: 800 }, { kind: 'waiting-retry', until: 800 }],
  [waiting, { type: 'done' }, IDLE],
  [waiting, { type: 'pause', reason: 'offline' }, paused],
  [waiting, { type: 'resume' }, waiting],
  [waiting, { type: 'stop' }, stopped],

  [paused, { type: 'start' }, paused],
  [paused, { type: 'wait', until: 9 }, paused],
  [paused, { type: 'done' }, paused],
  [paused, { type: 'pause', reason: 'unauthorized' }, { kind: 'paused', reason: 'unauthorized' }],
  [paused, { type: 'resume' }, IDLE],
  [paused, { type: 'stop' }, stopped],

  [stopped, { type: 'start' }, running],
  [stopped, { type: 'wait', until: 9 }, stopped],
  [stopped, { type: 'done' }, stopped],
  [stopped, { type: 'pause', reason: 'offline' }, stopped],
  [stopped, { type: 'resume' }, stopped],
  [stopped, { type: 'stop' }, stopped],
];

describe('nextLoopState', () => {
  it.each(TABLE)('%o on %o → %o', (from, event, to) => {
    expect(nextLoopState(from, event)).toEqual(to);
  });

  it('keeps the same object when nothing changes (no spurious notifications)', () => {
    expect(nextLoopState(paused, { type: 'pause', reason: 'offline' })).toBe(paused);
    expect(nextLoopState(running, { type: 'start' })).toBe(running);
  });
});
