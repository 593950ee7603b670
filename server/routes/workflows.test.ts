import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../schema/api/calls-comments.ts';
import { workflowExecutionSchema, workflowSchema, type Workflow, type WorkflowExecution } from '../../schema/workflow.ts';
import { runInScope } from '../core/workflow-scope.ts';
import { runWorkflows } from '../domain/workflows/engine.ts';
import { workflowReceiptRequirements } from '../domain/workflows/requirements.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, makeVendor, refusal, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 29, automation workflows on the server: saves (and their refusals), every trigger firing
 * through the real write, every action acting, the execution log, one run per event, the depth
 * limit, the dry run, the canvas, and another business's ids.
 */
const WF = '/v1/auth/workflows';
const EXEC = '/v1/auth/blank-canvas/executions';
const oop = (over: Record<string, unknown> = {}) => ({ merchant: 'Blue Bottle', amount: 2000, currency: 'USD', transaction_date: '2026-11-20', ...over });

describe.each(await testDatabases())('workflows on %s', (kind) => {
  const clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock, devOutbox: true });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;
  let vendor: string;

  const save = (body: Record<string, unknown>, token = tokens.admin) => request(t.app, 'POST', WF, { token, body: { enabled: true, conditions: [], ...body } });
  const saved = async (body: Record<string, unknown>): Promise<Workflow> => {
    const res = await save(body);
    expect(res.status, res.text).toBe(201);
    return workflowSchema.parse(res.body);
  };
  const executions = async (q: string, token = tokens.admin): Promise<WorkflowExecution[]> => {
    const res = await request<{ data: unknown[] }>(t.app, 'GET', `${EXEC}?${q}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((e) => workflowExecutionSchema.parse(e));
  };
  const disable = (id: string) => request(t.app, 'PATCH', `${WF}/${id}`, { token: tokens.admin, body: { enabled: false } });
  const claim = async (over: Record<string, unknown> = {}, role: FixtureRole = 'employee') => {
    const res = await request<{ id: string; status: string }>(t.app, 'POST', '/v1/auth/reimbursements/out_of_pocket', { token: tokens[role], body: oop(over) });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const claimStatus = async (id: string) => (await t.db.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = $1', [id]))[0]!.status;
  const mails = async (to: string) => t.db.query<{ subject: string; body: string }>('SELECT subject, body FROM dev_outbox WHERE recipient = $1', [to]);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 2 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
    vendor = await makeVendor(t.app, tokens.admin, 'Acme Supplies');
  });

  it('auto-approves claims under 25 USD: an employee\'s 20 USD claim is approved at once, a 30 USD one waits; the log says why', async () => {
    const w = await saved({ name: 'Small claims', trigger: 'claim.submitted', actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }] });
    const small = await claim({ amount: 2000 });
    expect(await claimStatus(small.id)).toBe('APPROVED');
    const big = await claim({ amount: 3000 });
    expect(await claimStatus(big.id)).toBe('SUBMITTED');
    const [log] = await executions(`object_id=${small.id}`);
    expect(log).toMatchObject({ workflow_id: w.id, trigger: 'claim.submitted', status: 'SUCCEEDED', depth: 1, object_type: 'reimbursement' });
    expect(log!.actions[0]).toMatchObject({ kind: 'auto_approve', status: 'DONE' });
    expect(log!.actions[0]!.detail).toContain('Workflow: Small claims');
    const [bigLog] = await executions(`object_id=${big.id}`);
    expect(bigLog!.actions[0]).toMatchObject({ status: 'SKIPPED', detail: 'Not under $25.00: $30.00.' });
    // The approval row is decided (by an admin standing for the workflow), not the claimant.
    const [approval] = await t.db.query<{ status: string; decided_by: string }>(`SELECT status, decided_by::text FROM approvals WHERE object_id = $1`, [small.id]);
    expect(approval!.status).toBe('APPROVED');
    expect(approval!.decided_by).not.toBe(a.users.employee);
    await disable(w.id);
  });

  it('refuses misfit steps (7002 by field), loops (7001 naming the chain), non-admins (7003), foreign ids (404) and the last rule\'s delete (7004)', async () => {
    const misfit = await save({ name: 'x', trigger: 'receipt.uploaded', actions: [{ kind: 'lock_card' }] });
    expect(refusal(misfit)).toEqual([422, 'WORKFLOW_7002']);
    expect((misfit.body as { error_v2: { errors: Record<string, string> } }).error_v2.errors).toHaveProperty('actions.0');
    const loop = await save({ name: 'Recode', trigger: 'transaction.coded', actions: [{ kind: 'set_coding', gl_account_id: a.glAccounts.active[0] }] });
    expect(refusal(loop)).toEqual([422, 'WORKFLOW_7001']);
    expect(refusal(await save({ name: 'x', trigger: 'claim.submitted', actions: [{ kind: 'comment', text: 'hi' }] }, tokens.manager))).toEqual([403, 'WORKFLOW_7003']);
    expect(refusal(await save({ name: 'x', trigger: 'claim.submitted', conditions: [{ kind: 'person', in: [b.users.employee] }], actions: [{ kind: 'comment', text: 'hi' }] })))
      .toEqual([404, 'REQUEST_7004']);
    expect(refusal(await save({ name: 'x', trigger: 'claim.submitted', actions: [{ kind: 'comment', text: 'hi' }], extra: 1 }))).toEqual([422, 'REQUEST_7001']);
    const w = await saved({ name: 'One rule', trigger: 'bill.created', enabled: false, actions: [{ kind: 'comment', text: 'hi' }] });
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/rules/${w.rules[0]!.id}`, { token: tokens.admin }))).toEqual([409, 'WORKFLOW_7004']);
    // Another business sees none of it.
    expect(refusal(await request(t.app, 'GET', `${WF}/${w.id}`, { token: bOwner }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PATCH', `${WF}/${w.id}`, { token: bOwner, body: { name: 'mine' } }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PUT', `/v1/auth/rules/${w.rules[0]!.id}`, { token: bOwner, body: { conditions: [], actions: [{ kind: 'comment', text: 'x' }] } })))
      .toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${WF}/${w.id}`, { token: bOwner }))).toEqual([404, 'REQUEST_7004']);
    expect((await executions(`workflow_id=${w.id}`, bOwner))).toEqual([]);
    expect(refusal(await request(t.app, 'GET', WF, { token: tokens.employee }))).toEqual([403, 'FORBIDDEN_7003']);
  });

  it('edits: PATCH bumps the version and keeps the first rule\'s id, PUT rules/{id} replaces one rule, DELETE stops it and keeps the log', async () => {
    const w = await saved({
      name: 'Versions', trigger: 'bill.created', enabled: false, actions: [{ kind: 'comment', text: 'one' }],
      rules: [{ conditions: [], actions: [{ kind: 'comment', text: 'two' }] }],
    });
    expect(w.version).toBe(1);
    expect(w.rules).toHaveLength(2);
    const patched = workflowSchema.parse((await request(t.app, 'PATCH', `${WF}/${w.id}`, { token: tokens.admin, body: { name: 'Versions 2' } })).body);
    expect(patched).toMatchObject({ version: 2, name: 'Versions 2' });
    expect(patched.rules.map((r) => r.id)).toEqual(w.rules.map((r) => r.id));
    const put = await request(t.app, 'PUT', `/v1/auth/rules/${w.rules[1]!.id}`, { token: tokens.admin, body: { conditions: [], actions: [{ kind: 'comment', text: 'three' }] } });
    expect(put.status, put.text).toBe(200);
    expect(workflowSchema.parse(put.body)).toMatchObject({ version: 3, rules: [{ id: w.rules[0]!.id }, { id: w.rules[1]!.id, actions: [{ kind: 'comment', text: 'three' }] }] });
    const dropped = await request(t.app, 'DELETE', `/v1/auth/rules/${w.rules[1]!.id}`, { token: tokens.admin });
    expect(workflowSchema.parse(dropped.body).rules).toHaveLength(1);
    expect((await request(t.app, 'DELETE', `${WF}/${w.id}`, { token: tokens.admin })).body).toEqual({ id: w.id, deleted: true });
    expect(refusal(await request(t.app, 'GET', `${WF}/${w.id}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
  });

  it('fires every trigger through its real write, and each action acts', async () => {
    const notify = { kind: 'notify', to: { kind: 'owner' }, message: 'Seen by a workflow.' } as const;
    const ws = await Promise.all([
      saved({ name: 'Txn', trigger: 'transaction.created', actions: [{ kind: 'set_coding', gl_account_id: a.glAccounts.active[0] }, { kind: 'require_receipt' }, { kind: 'lock_card' }] }),
      saved({ name: 'Coded', trigger: 'transaction.coded', actions: [notify] }),
      saved({ name: 'Bill', trigger: 'bill.created', actions: [{ kind: 'add_approval_step', approvers: { kind: 'user', user_id: a.users.bookkeeper } }] }),
      saved({ name: 'Card req', trigger: 'card_request.created', actions: [{ kind: 'comment', text: 'Looked at.' }] }),
      saved({ name: 'Spend req', trigger: 'spend_request.created', actions: [notify] }),
      saved({ name: 'Receipt', trigger: 'receipt.uploaded', actions: [notify] }),
    ]);
    // A purchase: coded (→ transaction.coded at depth 2, which mails the owner), a receipt required, the card locked.
    const buy = await request<{ approved: boolean; transaction: { id: string } }>(t.app, 'POST', `/v1/auth/cards/${a.cards.employee}/simulate`,
      { token: tokens.employee, body: { amount: 4200, merchant: 'Staples' } });
    expect(buy.status, buy.text).toBe(200);
    const txnId = buy.body.transaction.id;
    const [txn] = await t.db.query<{ gl: string }>('SELECT gl_account_id::text AS gl FROM transactions WHERE id = $1', [txnId]);
    expect(txn!.gl).toBe(a.glAccounts.active[0]);
    expect((await t.db.query('SELECT 1 FROM workflow_receipt_requirements WHERE object_id = $1', [txnId]))).toHaveLength(1);
    expect((await t.db.query<{ status: string }>('SELECT status FROM cards WHERE id = $1', [a.cards.employee]))[0]!.status).toBe('LOCKED');
    const txnLogs = await executions(`object_id=${txnId}`);
    expect(txnLogs.map((e) => [e.trigger, e.depth, e.status]).sort()).toEqual([['transaction.coded', 2, 'SUCCEEDED'], ['transaction.created', 1, 'SUCCEEDED']]);
    expect((await mails(a.email('employee'))).some((m) => m.subject === 'Coded: a card transaction is coded' && m.body.includes(`/transactions?open=${txnId}`))).toBe(true);
    // A bill: one more approval step, the bookkeeper's.
    const bill = await request<{ id: string }>(t.app, 'POST', '/v1/auth/bill-pay', { token: tokens.admin, body: {
      vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Paper', amount: 12_000 }], submit: true,
    } });
    expect(bill.status, bill.text).toBe(200);
    const [inst] = await t.db.query<{ steps: { approver_ids: string[] }[] }>('SELECT steps FROM approval_instances WHERE object_id = $1', [bill.body.id]);
    expect(inst!.steps.at(-1)!.approver_ids).toEqual([a.users.bookkeeper]);
    // A card request: it has no comment thread, said so.
    const req = await request<{ id: string }>(t.app, 'POST', '/v1/auth/cards/requests', { token: tokens.employee, body: { amount: 50_000, currency: 'USD', interval: 'MONTHLY', reason: 'Travel' } });
    expect(req.status, req.text).toBe(200);
    expect((await executions(`object_id=${req.body.id}`))[0]!.actions).toEqual([{ kind: 'comment', status: 'SKIPPED', detail: 'Comments are kept on transactions, claims, bills and spend requests, not on card requests.' }]);
    // A spend request and a receipt upload: the owner is mailed.
    const spend = await request<{ id: string }>(t.app, 'POST', '/v1/auth/spend-requests', { token: tokens.teammate, body: { type: 'GENERAL_EXPENSE', amount: { amount: 50_000, currency: 'USD' }, description: 'Offsite' } });
    expect(spend.status, spend.text).toBe(201);
    expect((await executions(`object_id=${spend.body.id}`))[0]).toMatchObject({ status: 'SUCCEEDED', actions: [{ kind: 'notify', status: 'DONE' }] });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomUUID().split('').map((c) => c.charCodeAt(0))]);
    const up = await t.app.request('/v1/auth/receipts', { method: 'POST', headers: { 'RAMP-ID-TOKEN': tokens.manager, 'content-type': 'image/png' }, body: png });
    const receipt = await up.json() as { id: string };
    expect(up.status).toBeLessThan(300);
    expect((await executions(`object_id=${receipt.id}`))[0]).toMatchObject({ trigger: 'receipt.uploaded', status: 'SUCCEEDED' });
    expect((await mails(a.email('manager'))).some((m) => m.subject.startsWith('Receipt:'))).toBe(true);
    // The log pages newest first, per workflow.
    const page = await request<{ data: WorkflowExecution[]; page: { next: string | null } }>(t.app, 'GET', `${EXEC}?page_size=1`, { token: tokens.admin });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.page.next).not.toBeNull();
    for (const w of ws) await disable(w.id);
  });

  it('transaction.cleared (raised by a clearing write such as the travel charge) requires a receipt the missing-items call can read', async () => {
    const w = await saved({ name: 'Cleared', trigger: 'transaction.cleared', conditions: [{ kind: 'person', in: [a.users.manager] }], actions: [{ kind: 'require_receipt' }] });
    const [mine, other] = [a.transactions.manager[0]!, a.transactions.employee[0]!];
    await t.db.transaction(async (tx) => {
      for (const id of [mine, other]) await runWorkflows(tx, a.businessId, { trigger: 'transaction.cleared', objectId: id });
    });
    expect([...await workflowReceiptRequirements(t.db, a.businessId, [mine, other])]).toEqual([mine]);
    expect(await workflowReceiptRequirements(t.db, b.businessId, [mine])).toEqual(new Set());
    expect((await executions(`object_id=${other}`)).find((e) => e.workflow_id === w.id)).toMatchObject({ status: 'NO_MATCH', actions: [] });
    await disable(w.id);
  });

  it('runs a workflow once per event: fired twice, and raced twice, one execution and one mail', async () => {
    const w = await saved({ name: 'Once', trigger: 'claim.submitted', actions: [{ kind: 'notify', to: { kind: 'role', role: 'BUSINESS_BOOKKEEPER' }, message: 'A claim.' }] });
    const c = await claim({ amount: 9900 });
    const before = (await mails(a.email('bookkeeper'))).length;
    await t.db.transaction((tx) => runWorkflows(tx, a.businessId, { trigger: 'claim.submitted', objectId: c.id }));
    await Promise.all([1, 2].map(() => t.db.transaction((tx) => runWorkflows(tx, a.businessId, { trigger: 'claim.submitted', objectId: c.id }))));
    expect(await executions(`workflow_id=${w.id}&object_id=${c.id}`)).toHaveLength(1);
    expect((await mails(a.email('bookkeeper'))).length).toBe(before);
    await disable(w.id);
  });

  it('stops past the depth limit with the error in the log, and an action\'s failure never fails the trigger', async () => {
    const w = await saved({ name: 'Deep', trigger: 'claim.submitted', actions: [{ kind: 'comment', text: 'x' }] });
    const c = await claim({ amount: 100, submit: false });
    await t.db.transaction((tx) => runInScope({ depth: 4 }, () => runWorkflows(tx, a.businessId, { trigger: 'claim.submitted', objectId: c.id })));
    const [deep] = await executions(`workflow_id=${w.id}&object_id=${c.id}`);
    expect(deep).toMatchObject({ status: 'FAILED', depth: 4, actions: [] });
    expect(deep!.error).toContain('at most 3');
    await disable(w.id);
    // Coding a synced transaction fails (ACCOUNTING_7301): recorded, the purchase still goes through.
    const sync = await saved({ name: 'Recode', trigger: 'transaction.created', actions: [{ kind: 'set_coding', gl_account_id: a.glAccounts.active[1] }, { kind: 'comment', text: 'x' }] });
    await t.db.query(`CREATE OR REPLACE FUNCTION wf_test_sync() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.accounting_synced_at := now(); RETURN NEW; END $$`);
    await t.db.query('CREATE TRIGGER wf_test_sync BEFORE INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION wf_test_sync()');
    try {
      const buy = await request<{ approved: boolean; transaction: { id: string } }>(t.app, 'POST', `/v1/auth/cards/${a.cards.manager}/simulate`,
        { token: tokens.manager, body: { amount: 1500, merchant: 'Uber' } });
      expect(buy.status, buy.text).toBe(200);
      const [log] = await executions(`object_id=${buy.body.transaction.id}`);
      // The comment still lands (its own savepoint): one action failed, one did.
      expect(log).toMatchObject({ status: 'PARTIAL', actions: [{ kind: 'set_coding', status: 'FAILED' }, { kind: 'comment', status: 'DONE', detail: 'Commented: “x”' }] });
    } finally {
      await t.db.query('DROP TRIGGER wf_test_sync ON transactions');
    }
    await disable(sync.id);
  });

  it('dry-runs the last 30 days of claims, acting on nothing', async () => {
    await claim({ amount: 1000 }, 'teammate');
    await claim({ amount: 5000 }, 'teammate');
    const run = await request<{ events: number; matched: number; by_action: Record<string, number>; results: { actions: { detail: string }[] }[] }>(
      t.app, 'POST', `${WF}/dry-run`, { token: tokens.admin, body: { workflow: {
        name: 'Try', trigger: 'claim.submitted', enabled: false, conditions: [{ kind: 'person', in: [a.users.teammate] }],
        actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }],
      } } });
    expect(run.status, run.text).toBe(200);
    expect(run.body.matched).toBe(2);
    expect(run.body.events).toBeGreaterThanOrEqual(2);
    expect(run.body.by_action).toEqual({ auto_approve: 2 });
    expect(run.body.results.map((r) => r.actions[0]!.detail).sort()).toEqual(['Not under $25.00: $50.00.', 'Would approve it ($10.00 is under $25.00).']);
    const pending = await t.db.query(`SELECT 1 FROM reimbursements WHERE business_id = $1 AND user_id = $2 AND status = 'SUBMITTED'`, [a.businessId, a.users.teammate]);
    expect(pending).toHaveLength(2);
  });

  it('saves a drawn canvas, keeps its positions, and refuses one that does not read (7006 by node)', async () => {
    const canvas = {
      nodes: [
        { id: 't', type: 'trigger', trigger: 'bill.created', position: { x: 10, y: 20 } },
        { id: 'r', type: 'rule', conditions: [], position: { x: 300, y: 20 } },
        { id: 'a1', type: 'action', action: { kind: 'comment', text: 'hi' }, position: { x: 600, y: 40 } },
      ],
      edges: [{ from: 't', to: 'r' }, { from: 'r', to: 'a1' }],
    };
    const res = await request<{ workflow: Workflow; canvas: typeof canvas }>(t.app, 'POST', '/v1/auth/blank-canvas/workflows', { token: tokens.admin, body: { name: 'Drawn', enabled: false, canvas } });
    expect(res.status, res.text).toBe(200);
    const got = await request<{ workflow: Workflow; canvas: typeof canvas }>(t.app, 'GET', `/v1/auth/blank-canvas/workflows/${res.body.workflow.id}`, { token: tokens.admin });
    expect(got.body.canvas.nodes.find((n) => n.id === 'a1')!.position).toEqual({ x: 600, y: 40 });
    expect(got.body.canvas.nodes.find((n) => n.id === 'r')).toMatchObject({ rule_id: res.body.workflow.rules[0]!.id });
    const bad = await request(t.app, 'POST', '/v1/auth/blank-canvas/workflows', { token: tokens.admin, body: { name: 'Bad', enabled: false, canvas: { ...canvas, edges: [{ from: 't', to: 'r' }] } } });
    expect(refusal(bad)).toEqual([422, 'WORKFLOW_7006']);
    expect((bad.body as { error_v2: { errors: Record<string, string> } }).error_v2.errors).toHaveProperty('nodes.r');
  });
  it('comments on the item as the workflow and notifies in the app through notify(), once per event; the dry run says what it would write', async () => {
    const text = 'Thanks, finance will look at this today.';
    const w = await saved({ name: 'Claim desk', trigger: 'claim.submitted', conditions: [{ kind: 'person', in: [a.users.teammate] }], actions: [
      { kind: 'comment', text }, { kind: 'notify', to: { kind: 'owner' }, message: 'Your claim reached finance.' },
    ] });
    const c = await claim({ amount: 4100 }, 'teammate');
    const [log] = await executions(`workflow_id=${w.id}&object_id=${c.id}`);
    const teammate = `Teammate Fixture${a.businessId.slice(0, 8)}`;
    expect(log!.actions).toEqual([{ kind: 'comment', status: 'DONE', detail: `Commented: “${text}”` }, { kind: 'notify', status: 'DONE', detail: `Notified ${teammate}.` }]);
    const thread = await request<{ data: Comment[] }>(t.app, 'GET', `/v1/auth/comments?subject_type=reimbursement&subject_id=${c.id}`, { token: tokens.teammate });
    expect(thread.status, thread.text).toBe(200);
    expect(thread.body.data).toMatchObject([{ author_id: null, workflow_id: w.id, author_name: 'Workflow: Claim desk', body: text, can_delete: false }]);
    const told = () => t.db.query<{ kind: string; title: string; body: string; path: string; event_key: string; actor_id: string | null }>(
      'SELECT kind, title, body, path, event_key, actor_id::text FROM notifications WHERE owner_id = $1 AND subject_id = $2 ORDER BY kind', [a.users.teammate, c.id]);
    const path = `/reimbursements?open=${c.id}`;
    expect(await told()).toEqual([
      { kind: 'comment', title: 'Workflow: Claim desk commented on Blue Bottle · $41.00', body: text, path, event_key: `comment:${thread.body.data[0]!.id}:comment`, actor_id: null },
      { kind: 'workflow', title: 'Claim desk: a claim is submitted', body: 'Your claim reached finance.', path, event_key: `workflow:${log!.id}:1:${a.users.teammate}`, actor_id: null },
    ]);
    // Fired again: no second comment, notification or mail.
    await t.db.transaction((tx) => runWorkflows(tx, a.businessId, { trigger: 'claim.submitted', objectId: c.id }));
    expect(await told()).toHaveLength(2);
    expect((await t.db.query('SELECT 1 FROM comments WHERE subject_id = $1', [c.id]))).toHaveLength(1);
    expect((await mails(a.email('teammate'))).filter((m) => m.subject === 'Claim desk: a claim is submitted' && m.body.includes(path))).toHaveLength(1);
    await disable(w.id);
    const run = await request<{ results: { actions: { status: string; detail: string }[] }[] }>(t.app, 'POST', `${WF}/dry-run`, { token: tokens.admin, body: { workflow: {
      name: 'Try', trigger: 'card_request.created', enabled: false, conditions: [], actions: [{ kind: 'comment', text: 'Seen.' }] } } });
    expect(run.status, run.text).toBe(200);
    for (const r of run.body.results) expect(r.actions[0]).toMatchObject({ status: 'SKIPPED', detail: expect.stringContaining('not on card requests') });
    const tryClaims = await request<{ results: { actions: { detail: string }[] }[] }>(t.app, 'POST', `${WF}/dry-run`, { token: tokens.admin, body: { workflow: {
      name: 'Try', trigger: 'claim.submitted', enabled: false, conditions: [], actions: [{ kind: 'comment', text: 'Seen.' }] } } });
    expect(tryClaims.body.results[0]!.actions[0]!.detail).toBe('Would comment: “Seen.”');
  });
});
