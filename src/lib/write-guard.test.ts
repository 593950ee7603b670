import { describe, expect, it } from 'vitest';
import { createWriteGuard, guardCommands, type UnloadTarget } from './write-guard.ts';

function fakeWindow() {
  const listeners = new Set<(e: BeforeUnloadEvent) => void>();
  const target: UnloadTarget = {
    addEventListener: (_t, l) => void listeners.add(l),
    removeEventListener: (_t, l) => void listeners.delete(l),
  };
  const unload = () => {
    const e = { defaultPrevented: false, returnValue: undefined as unknown, preventDefault() { this.defaultPrevented = true; } };
    for (const l of listeners) l(e as unknown as BeforeUnloadEvent);
    return e.defaultPrevented;
  };
  return { target, listeners, unload };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('createWriteGuard', () => {
  it('holds beforeunload only while writes are in flight', async () => {
    const w = fakeWindow();
    const guard = createWriteGuard(w.target);
    expect(w.listeners.size).toBe(0);
    const a = deferred();
    const b = deferred();
    void guard.track(a.promise);
    void guard.track(b.promise).catch(() => undefined);
    expect(w.listeners.size).toBe(1);
    expect(w.unload()).toBe(true);
    a.resolve();
    await a.promise;
    expect(w.listeners.size).toBe(1); // b still writing
    b.reject(new Error('quota'));
    await b.promise.catch(() => undefined);
    await Promise.resolve();
    expect(w.listeners.size).toBe(0);
    expect(w.unload()).toBe(false);
    expect(guard.inFlight).toBe(0);
  });
});

describe('guardCommands', () => {
  it('tracks run and codeTransactions, passes the rest through', async () => {
    const w = fakeWindow();
    const guard = createWriteGuard(w.target);
    const write = deferred();
    const client = { run: (name: string) => write.promise.then(() => name), codeTransactions: () => Promise.resolve(1), outbox: () => 'x' };
    const guarded = guardCommands(client, guard);
    const result = guarded.run('transaction.code');
    expect(guard.inFlight).toBe(1);
    expect(guarded.outbox()).toBe('x');
    write.resolve();
    expect(await result).toBe('transaction.code');
    expect(await guarded.codeTransactions()).toBe(1);
    await Promise.resolve();
    expect(guard.inFlight).toBe(0);
    expect(w.listeners.size).toBe(0);
  });
});
