import { describe, expect, it } from 'vitest';
import { createStore, sliceReader } from './store.ts';

/** useStore's slice cache (sliceReader): per state and selector. */
describe('sliceReader', () => {
  const store = createStore({ phase: 'initial', loaded: 10 });

  it('answers the same value for the same state and selector, without reading again', () => {
    const read = sliceReader<ReturnType<typeof store.get>, { loaded: number }>();
    let reads = 0;
    const select = (s: { loaded: number }) => {
      reads += 1;
      return { loaded: s.loaded };
    };
    const first = read(store.get(), select);
    expect(read(store.get(), select)).toBe(first);
    expect(reads).toBe(1);
    store.set({ loaded: 20 });
    expect(read(store.get(), select)).toEqual({ loaded: 20 });
    expect(reads).toBe(2);
  });

  it('reads again with a new selector while the state is unchanged (one that closes over changed props)', () => {
    const read = sliceReader<ReturnType<typeof store.get>, string | null>();
    const notice = (answered: boolean) => (s: { phase: string }) => (answered && s.phase === 'initial' ? 'still downloading' : null);
    const state = store.get();
    expect(read(state, notice(false))).toBeNull();
    // The list answered; the store did not change (the mirror's walk is waiting on the network).
    expect(read(state, notice(true))).toBe('still downloading');
  });
});
