/**
 * DevTools on the app's data worker, from the benchmark: a CDP session attached to the worker the
 * app starts as DATA_WORKER_NAME (`workerCdp`, also used by bench/mirror-profile.ts to
 * CPU-profile it) and its JS heap after a forced GC (`workerHeap`, the worker_heap_mb metric).
 */
import type { Page } from 'playwright-core';
import { DATA_WORKER_NAME } from './app-probe.ts';

export interface WorkerHeap {
  /** V8 heap in use after a forced full GC, MiB. */
  usedMb: number;
  /** The same before the GC, MiB. */
  beforeGcMb: number;
  /** The heap V8 has reserved after the GC, MiB. */
  totalMb: number;
}

const MIB = 1024 * 1024;
const toMb = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/** A DevTools session on the data worker: `send` one protocol command, `close` when done. */
export interface WorkerCdp {
  send<T>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Attaches DevTools to the data worker: a CDP session on the page auto-attaches to its dedicated
 * workers (the non-flattened protocol, whose messages travel as strings through this session, so
 * Playwright's own attachment is untouched) and keeps the one named DATA_WORKER_NAME.
 */
export async function workerCdp(page: Page, timeoutMs = 30_000): Promise<WorkerCdp> {
  const cdp = await page.context().newCDPSession(page);
  type Attached = { sessionId: string; targetInfo: { type: string; title: string } };
  const found = new Promise<Attached>((resolve) => {
    cdp.on('Target.attachedToTarget', (e: Attached) => {
      if (e.targetInfo.type === 'worker' && e.targetInfo.title === DATA_WORKER_NAME) resolve(e);
    });
  });
  const replies = new Map<number, (msg: { result?: unknown; error?: { message: string } }) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
    if (msg.id !== undefined) replies.get(msg.id)?.(msg);
  });
  let seq = 0;
  const timeout = <T>(p: Promise<T>, what: string) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`worker devtools: no ${what} after ${timeoutMs} ms`)), timeoutMs))]);
  const close = async () => {
    await cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: false }).catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  };
  try {
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    const { sessionId } = await timeout(found, `worker named ${DATA_WORKER_NAME}`);
    return {
      async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
        const id = ++seq;
        const reply = new Promise<{ result?: unknown; error?: { message: string } }>((resolve) => replies.set(id, resolve));
        await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
        const msg = await timeout(reply, `answer to ${method}`);
        replies.delete(id);
        if (msg.error) throw new Error(`worker devtools: ${method}: ${msg.error.message}`);
        return msg.result as T;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The data worker's JS heap, read through DevTools (`workerCdp`): forces a full GC
 * (`HeapProfiler.collectGarbage`) and reads `Runtime.getHeapUsage` (`usedSize`: live objects of
 * the worker's V8 isolate).
 */
export async function workerHeap(page: Page, timeoutMs = 30_000): Promise<WorkerHeap> {
  const worker = await workerCdp(page, timeoutMs);
  try {
    type Usage = { usedSize: number; totalSize: number };
    const before = await worker.send<Usage>('Runtime.getHeapUsage');
    await worker.send('HeapProfiler.collectGarbage');
    const after = await worker.send<Usage>('Runtime.getHeapUsage');
    return { usedMb: toMb(after.usedSize), beforeGcMb: toMb(before.usedSize), totalMb: toMb(after.totalSize) };
  } finally {
    await worker.close();
  }
}
