import { beforeAll, describe, expect, it } from 'vitest';
import { workflowExecutionSchema, workflowSchema, type Workflow, type WorkflowExecution } from '../../schema/workflow.ts';
import { hashPassword } from '../auth/password.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { request, signIn } from '../test-fixtures.ts';
import { seedDemo } from './seed.ts';
import { DEMO_PASSWORD } from './types.ts';

/**
 * The demo's workflows (seed/workflows.ts) as the admin reads them through the real routes: three,
 * none on (so no demo or test write runs them), two with runs in their log that parse as the
 * engine's executions and say what the evaluator says, one that never ran; the same on a second seed.
 */
const NOW = new Date('2026-11-21T00:00:00.000Z');
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });

describe.each(await testDatabases())('the seeded demo workflows on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW.getTime() + 3_600_000 });
  let workflows: Workflow[];
  const runs = new Map<string, WorkflowExecution[]>();

  beforeAll(async () => {
    await seedDemo(t.db, { transactions: 60, bills: 0, now: NOW, hashPassword: fastHash });
    const admin = await signIn(t.app, 'admin@demo.test', DEMO_PASSWORD);
    const list = await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/workflows', { token: admin });
    expect(list.status, list.text).toBe(200);
    workflows = list.body.data.map((w) => workflowSchema.parse(w));
    for (const w of workflows) {
      const res = await request<{ data: unknown[] }>(t.app, 'GET', `/v1/auth/blank-canvas/executions?workflow_id=${w.id}`, { token: admin });
      expect(res.status, res.text).toBe(200);
      runs.set(w.id, res.body.data.map((e) => workflowExecutionSchema.parse(e)));
    }
  }, 120_000);

  it('gives the admin three workflows, none switched on', () => {
    expect(workflows.map((w) => w.name).sort()).toEqual([
      'Flights: ask the traveller for the e-ticket', 'Large claims: tell the bookkeeper', 'Software over $200 needs a receipt',
    ]);
    expect(workflows.filter((w) => w.enabled)).toEqual([]);
  });

  it('logs runs of the two that were on, as the engine records them; the draft never ran', () => {
    const byName = new Map(workflows.map((w) => [w.name, w]));
    const flights = byName.get('Flights: ask the traveller for the e-ticket')!;
    const claims = byName.get('Large claims: tell the bookkeeper')!;
    const draft = byName.get('Software over $200 needs a receipt')!;
    expect(runs.get(draft.id)).toEqual([]);
    expect(draft.last_run_at).toBeNull();
    for (const w of [flights, claims]) {
      const log = runs.get(w.id)!;
      expect(log.length).toBeGreaterThan(0);
      expect(w.version).toBe(2);
      expect(w.last_run_at).toBe(log[0]!.created_at);
      for (const run of log) {
        expect(run).toMatchObject({ workflow_id: w.id, workflow_version: 1, trigger: w.trigger, depth: 1, error: null });
        // A matched run did the rule's one action; one that matched nothing did none.
        if (run.rule_id) expect(run).toMatchObject({ status: 'SUCCEEDED', actions: [{ kind: 'notify', status: 'DONE' }] });
        else expect(run).toMatchObject({ status: 'NO_MATCH', actions: [] });
      }
    }
    // The flights rule reads the category: an airline charge matched, others did not.
    const flightRuns = runs.get(flights.id)!;
    expect(flightRuns.some((r) => r.rule_id !== null && r.inputs.merchant_category === 'Airlines')).toBe(true);
    expect(flightRuns.every((r) => (r.rule_id !== null) === (r.inputs.merchant_category === 'Airlines'))).toBe(true);
  });
});
