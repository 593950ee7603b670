import { evaluateWorkflow, TRIGGER_OBJECT, type ActionResult, type WorkflowRule, type WorkflowTrigger } from '../../../schema/workflow.ts';
import type { Queryable } from '../../db/db.ts';
import { wouldDo } from './actions.ts';
import { loadSubjects } from './subjects.ts';

/**
 * The dry run (issue 29): the trigger's past events of the last `days` days, read back from the
 * tables that record them, each evaluated as the engine would and its actions described, acting
 * on nothing (reads only). At most DRY_RUN_EVENTS newest events are replayed; `events` counts all.
 */
export const DRY_RUN_EVENTS = 10_000;
const RESULTS = 200;

/** Each trigger's past events: the object and when it happened, newest first. `$1` business, `$2` from. */
const EVENTS: Record<WorkflowTrigger, { from: string; at: string; where: string }> = {
  'transaction.created': { from: 'transactions', at: 'occurred_at', where: "state IN ('PENDING', 'CLEARED')" },
  'transaction.cleared': { from: 'transactions', at: 'occurred_at', where: "state = 'CLEARED'" },
  'transaction.coded': { from: 'transactions', at: 'updated_at', where: 'gl_account_id IS NOT NULL' },
  'claim.submitted': { from: 'reimbursements', at: 'submitted_at', where: 'submitted_at IS NOT NULL' },
  'bill.created': { from: 'bills', at: 'created_at', where: 'true' },
  'card_request.created': { from: 'card_requests', at: 'created_at', where: 'true' },
  'spend_request.created': { from: 'spend_requests', at: 'created_at', where: 'true' },
  'receipt.uploaded': { from: 'receipts', at: 'created_at', where: 'true' },
};


export async function dryRun(db: Queryable, businessId: string, w: { trigger: WorkflowTrigger; rules: WorkflowRule[] }, days: number, now: Date) {
  const from = new Date(now.getTime() - days * 86_400_000);
  const e = EVENTS[w.trigger];
  const where = `business_id = $1 AND NOT deleted AND ${e.at} >= $2 AND ${e.at} <= $3 AND ${e.where}`;
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${e.from} WHERE ${where}`, [businessId, from.toISOString(), now.toISOString()]);
  const ids = await db.query<{ id: string; at: string }>(
    `SELECT id::text, to_jsonb(${e.at}) #>> '{}' AS at FROM ${e.from} WHERE ${where} ORDER BY ${e.at} DESC, id DESC LIMIT ${DRY_RUN_EVENTS}`,
    [businessId, from.toISOString(), now.toISOString()],
  );
  let matched = 0;
  const byAction: Record<string, number> = {};
  const results: { event_key: string; object_type: string; object_id: string; occurred_at: string; summary: string; rule_id: string | null; actions: ActionResult[] }[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const subjects = await loadSubjects(db, businessId, TRIGGER_OBJECT[w.trigger], chunk.map((r) => r.id));
    for (const row of chunk) {
      const loaded = subjects.get(row.id);
      if (!loaded) continue;
      const ev = evaluateWorkflow(w, loaded.subject);
      if (ev.rule_id === null) continue;
      matched += 1;
      for (const a of ev.actions) byAction[a.kind] = (byAction[a.kind] ?? 0) + 1;
      if (results.length < RESULTS) {
        const s = loaded.subject;
        const what = [s.merchant, s.amount !== undefined && s.currency ? `${(s.amount / 100).toFixed(2)} ${s.currency}` : null].filter(Boolean).join(', ');
        results.push({
          event_key: `${w.trigger}:${row.id}`, object_type: s.object_type, object_id: row.id, occurred_at: new Date(row.at).toISOString(),
          summary: `${s.object_type.replace('_', ' ')}${what ? ` (${what})` : ''}: rule ${w.rules.findIndex((r) => r.id === ev.rule_id) + 1} matched`,
          rule_id: ev.rule_id, actions: ev.actions.map((a) => ({ kind: a.kind, ...wouldDo(a, s) })),
        });
      }
    }
  }
  return {
    from: from.toISOString().slice(0, 10), to: now.toISOString().slice(0, 10), events: Number(count?.n ?? 0), matched, by_action: byAction,
    results, truncated: matched > results.length,
  };
}
