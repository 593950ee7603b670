import { useCallback, useEffect, useState } from 'react';
import type { ApprovalGroup } from '../../../schema/api/calls-approval-policies.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';

export type GroupBody = { name: string; mode: 'any' | 'all'; user_ids: string[] };
export type GroupSave = { ok: true } | { ok: false; message: string; errors: Record<string, string> };

/**
 * Issue 29: the business's named approval groups (server-side, read when online), and their
 * create, edit and delete. A failure is the server's words (a group a policy uses: POLICY_7022).
 */
export function useApprovalGroups() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [groups, setGroups] = useState<ApprovalGroup[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const answer = useCallback((r: Awaited<ReturnType<typeof client.approvalGroups>>) => {
    if (r.ok) {
      setGroups(r.groups);
      setFailure(null);
    } else setFailure(errorText(r.error));
  }, [client]);
  const reload = useCallback(async () => answer(await client.approvalGroups()), [client, answer]);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.approvalGroups().then((r) => {
      if (live) answer(r);
    });
    return () => {
      live = false;
    };
  }, [client, online, answer]);

  const save = async (id: string | null, body: GroupBody): Promise<GroupSave> => {
    const r = id ? await client.updateApprovalGroup(id, body) : await client.createApprovalGroup(body);
    if (!r.ok) return { ok: false, message: errorText(r.error), errors: r.error.errors ?? {} };
    await reload();
    return { ok: true };
  };

  const remove = async (id: string): Promise<{ ok: true } | { ok: false; message: string }> => {
    const r = await client.deleteApprovalGroup(id);
    if (!r.ok) return { ok: false, message: errorText(r.error) };
    await reload();
    return { ok: true };
  };

  return { online, groups, failure, save, remove };
}
