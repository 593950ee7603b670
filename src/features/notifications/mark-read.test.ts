import { describe, expect, it } from 'vitest';
import { MAX_MARK_READ_IDS } from '../../../schema/api/calls-notifications.ts';
import type { DataClient } from '../../data-access/types.ts';
import { markRead } from './mark-read.ts';

/** A client whose `run` records each command and refuses the `refuseAt`-th (1-based). */
function fakeClient(refuseAt?: number) {
  const calls: { name: string; ids: string[] }[] = [];
  const client = {
    run: async (name: string, input: { ids: string[] }) => {
      calls.push({ name, ids: input.ids });
      if (calls.length === refuseAt) return { ok: false, error: { error_code: 'REQUEST_7004', message: 'Not found.' } };
      return { ok: true, command_id: `c${calls.length}`, affected: input.ids.length, took_ms: 0 };
    },
  } as unknown as DataClient;
  return { client, calls };
}
const ids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('markRead', () => {
  it('sends every id once, through the command, in chunks the command accepts', async () => {
    const { client, calls } = fakeClient();
    const all = ids(MAX_MARK_READ_IDS * 2 + 3);
    expect(await markRead(client, all)).toEqual({ ok: true, queued: all.length });
    expect(calls.map((c) => c.name)).toEqual(['notification.markRead', 'notification.markRead', 'notification.markRead']);
    expect(calls.map((c) => c.ids.length)).toEqual([MAX_MARK_READ_IDS, MAX_MARK_READ_IDS, 3]);
    expect(calls.flatMap((c) => c.ids)).toEqual(all);
  });

  it('nothing to mark sends nothing', async () => {
    const { client, calls } = fakeClient();
    expect(await markRead(client, [])).toEqual({ ok: true, queued: 0 });
    expect(calls).toEqual([]);
  });

  it('stops at the first refusal and says how many were queued before it', async () => {
    const { client, calls } = fakeClient(2);
    const outcome = await markRead(client, ids(MAX_MARK_READ_IDS * 3));
    expect(outcome.ok).toBe(false);
    expect(outcome.queued).toBe(MAX_MARK_READ_IDS);
    expect(calls).toHaveLength(2);
  });
});
