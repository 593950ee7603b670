import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { claimsOf, testClock } from './identity-test-kit.ts';
import { grantSupport, supportToken } from './support-test-kit.ts';

/**
 * §6 `impersonation-workflows-read` (issue 29): an impersonation token carries it; with it support
 * reads the business's workflows, canvases and execution log while acting as anyone (a non-admin
 * too), and never writes a workflow, even under a write grant or acting as an admin.
 */
const clock = testClock();
const WF = '/v1/auth/workflows';

describe.each(await testDatabases())('support reading workflows on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });

  it('reads workflows and runs while impersonating; every workflow write is refused (403 SUPPORT_7002) and audited', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const body = { name: 'Receipts for travel', trigger: 'transaction.created', enabled: true, conditions: [], actions: [{ kind: 'require_receipt' }] };
    const created = await request(t.app, 'POST', WF, { token: admin, body });
    expect(created.status, created.text).toBe(201);
    const workflowId = created.body.id as string;
    await grantSupport(t.app, admin, { days: 1, allow_writes: true });
    const support = await supportToken(t.app, t.db, clock);

    for (const role of ['employee', 'admin'] as const) {
      const start = await request(t.app, 'POST', '/v1/auth/impersonation/start', { token: support, body: { user_id: f.users[role] } });
      expect(start.status, start.text).toBe(200);
      const token = start.body.id_token as string;
      expect(claimsOf(token).ramp_access_scopes).toEqual(['default', 'impersonation-workflows-read']);

      const list = await request(t.app, 'GET', WF, { token });
      expect(list.status, `${role}: ${list.text}`).toBe(200);
      expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([workflowId]);
      expect((await request(t.app, 'GET', `${WF}/${workflowId}`, { token })).status).toBe(200);
      expect((await request(t.app, 'GET', '/v1/auth/blank-canvas/workflows', { token })).status).toBe(200);
      expect((await request(t.app, 'GET', `/v1/auth/blank-canvas/workflows/${workflowId}`, { token })).status).toBe(200);
      expect((await request(t.app, 'GET', `/v1/auth/blank-canvas/executions?workflow_id=${workflowId}`, { token })).status).toBe(200);

      const writes: [string, string, unknown][] = [
        ['POST', WF, body],
        ['PATCH', `${WF}/${workflowId}`, { enabled: false }],
        ['DELETE', `${WF}/${workflowId}`, undefined],
        ['POST', `${WF}/dry-run`, { workflow_id: workflowId }],
        ['POST', '/v1/auth/blank-canvas/workflows', { name: 'x', enabled: false, canvas: { nodes: [], edges: [] } }],
        ['PUT', `/v1/auth/rules/${workflowId}`, { conditions: [], actions: [{ kind: 'require_receipt' }] }],
        ['DELETE', `/v1/auth/rules/${workflowId}`, undefined],
      ];
      for (const [method, path, b] of writes) {
        expect(refusal(await request(t.app, method, path, { token, ...(b !== undefined && { body: b }) })), `${role} ${method} ${path}`).toEqual([403, 'SUPPORT_7002']);
      }
      // The write grant still lets support fix the person's own data elsewhere.
      expect((await request(t.app, 'GET', '/v1/auth/transactions', { token })).status).toBe(200);
    }
    const [wf] = await t.db.query<{ enabled: boolean; deleted: boolean }>('SELECT enabled, deleted FROM workflows WHERE id = $1', [workflowId]);
    expect(wf).toEqual({ enabled: true, deleted: false });
    const audited = await t.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM audit_log WHERE business_id = $1 AND impersonator_email IS NOT NULL AND call_id LIKE 'workflows.%' AND status = 403`,
      [f.businessId],
    );
    expect(Number(audited[0]!.n)).toBeGreaterThanOrEqual(8);
  });

  it('the person\'s own token reads workflows only as an admin (unchanged)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    expect(refusal(await request(t.app, 'GET', WF, { token: await signIn(t.app, f.email('employee')) }))).toEqual([403, 'FORBIDDEN_7003']);
    expect((await request(t.app, 'GET', WF, { token: await signIn(t.app, f.email('admin')) })).status).toBe(200);
  });
});
