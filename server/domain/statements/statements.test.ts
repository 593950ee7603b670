import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { asyncJobSchema } from '../../../schema/jobs.ts';
import { statementListSchema } from '../../../schema/statements.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { useTestApp } from '../../test-app.ts';
import { testDatabases } from '../../test-db.ts';
import { makeBusiness, refusal, request, signIn, type Fixture } from '../../test-fixtures.ts';
import { runAppJobsNow } from '../../jobs/work.ts';

/**
 * Issue 32, statements (§3; §8 BILLING_7003): who may have which statement, the months that have
 * one, the job that makes it, and the files read back by independent parsers (papaparse for the
 * CSV, pdf.js for the PDF): the month's cleared charges, the payments, opening and closing
 * balances per currency, totals per card, the currency and which states count.
 */
const STATEMENTS = '/v1/auth/statements';

/** pdf.js's Node build (legacy); on Node 20 it needs Promise.withResolvers. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const P = Promise as unknown as { withResolvers?: () => unknown };
  P.withResolvers ??= () => {
    let resolve!: (v: unknown) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  };
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: bytes, verbosity: 0 }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    text += `${content.items.map((i) => ('str' in i ? i.str : '')).join(' ')}\n`;
  }
  return text;
}
const JOBS = '/v1/auth/async-jobs';

describe.each(await testDatabases())('statements on %s', (kind) => {
  const clock = Date.parse('2026-03-15T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let b: Fixture;
  let admin: string;
  let employee: string;
  let januaryTotal: number;
  const DECEMBER_CHARGE = 5_000;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 60 });
    b = await makeBusiness(t.db, { transactions: 5 });
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
    const [sum] = await t.db.query<{ n: number }>("SELECT sum(amount)::bigint AS n FROM transactions WHERE business_id = $1 AND state = 'CLEARED'", [a.businessId]);
    januaryTotal = Number(sum!.n);
    // December: a cleared charge (the opening balance), paid by a settlement on January 20th;
    // a pending January charge, which no statement counts.
    const dec = randomUUID();
    const pending = randomUUID();
    for (const [id, at, state, amount] of [[dec, '2025-12-20T10:00:00Z', 'CLEARED', DECEMBER_CHARGE], [pending, '2026-01-25T10:00:00Z', 'PENDING', 777]] as const) {
      await t.db.query(
        `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
         VALUES ($1, $2, $3, $4, 'Hotel Prior', $5, 'USD', $6, $7, 9000)`,
        [id, a.businessId, a.cards.admin, a.users.admin, amount, at, state],
      );
    }
    const settlement = randomUUID();
    await t.db.query(
      `INSERT INTO card_settlements (id, business_id, currency, day, net, transactions, status, settled_at, cause)
       VALUES ($1, $2, 'USD', '2026-01-20', $3, 1, 'SETTLED', '2026-01-20T09:00:00Z', 'AGED')`,
      [settlement, a.businessId, DECEMBER_CHARGE],
    );
    await t.db.query('INSERT INTO card_settlement_items (business_id, settlement_id, transaction_id, amount) VALUES ($1, $2, $3, $4)',
      [a.businessId, settlement, dec, DECEMBER_CHARGE]);
  });

  it('lists what a month has: the business for admins, each card with charges, the months with activity', async () => {
    const res = await request(t.app, 'GET', `${STATEMENTS}?month=2026-01`, { token: admin });
    expect(res.status, res.text).toBe(200);
    const list = statementListSchema.parse(res.body);
    expect(list.months).toEqual(['2026-01', '2025-12']);
    expect(list.statements[0]).toMatchObject({ scope: 'business', card_id: null, totals: [{ currency: 'USD', charges: januaryTotal, transactions: 60 }] });
    expect(list.statements.filter((s) => s.scope === 'card').map((s) => s.card_id).sort()).toEqual(
      [a.cards.admin, a.cards.employee, a.cards.manager, a.cards.outsider, a.cards.teammate].sort(),
    );
    expect(list.includes).toContain('Pending and declined charges are not included');

    const mine = statementListSchema.parse((await request(t.app, 'GET', `${STATEMENTS}?month=2026-01`, { token: employee })).body);
    expect(mine.statements.map((s) => s.card_id)).toEqual([a.cards.employee]);
    // Without a month: the last ended one (February), which had nothing.
    const feb = statementListSchema.parse((await request(t.app, 'GET', STATEMENTS, { token: admin })).body);
    expect(feb).toMatchObject({ month: '2026-02', statements: [] });
  });

  it('refuses a month that has not ended or had no activity (BILLING_7003), and what the caller may not have', async () => {
    expect(refusal(await request(t.app, 'GET', `${STATEMENTS}?month=2026-03`, { token: admin }))).toEqual([404, 'BILLING_7003']);
    const post = (token: string, body: unknown) => request(t.app, 'POST', STATEMENTS, { token, body });
    expect(refusal(await post(admin, { scope: 'business', month: '2026-04', format: 'pdf' }))).toEqual([404, 'BILLING_7003']);
    const none = await post(admin, { scope: 'business', month: '2026-02', format: 'csv' });
    expect(refusal(none)).toEqual([404, 'BILLING_7003']);
    expect(none.text).toContain('February 2026');
    expect(refusal(await post(employee, { scope: 'business', month: '2026-01', format: 'csv' }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await post(employee, { scope: 'card', card_id: a.cards.admin, month: '2026-01', format: 'csv' }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await post(admin, { scope: 'card', card_id: b.cards.admin, month: '2026-01', format: 'csv' }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await post(admin, { scope: 'card', month: '2026-01', format: 'csv' }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await post(admin, { scope: 'business', month: '2026-13', format: 'csv' }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await post(admin, { scope: 'business', month: '2026-01', format: 'xlsx' }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await post(admin, { scope: 'business', month: '2026-01', format: 'csv', extra: 1 }))).toEqual([422, 'REQUEST_7001']);
  });

  it('makes the business statement as CSV through a job: charges, payment, balances, per-card totals', async () => {
    const created = await request(t.app, 'POST', STATEMENTS, { token: admin, body: { scope: 'business', month: '2026-01', format: 'csv' } });
    expect(created.status, created.text).toBe(202);
    const job = asyncJobSchema.parse(created.body);
    expect(job).toMatchObject({ kind: 'statement', state: 'queued', title: 'Statement · January 2026 · Business · CSV', file: null });
    await runAppJobsNow(t.app.deps);
    const done = asyncJobSchema.parse((await request(t.app, 'GET', `${JOBS}/${job.id}`, { token: admin })).body);
    expect(done).toMatchObject({ state: 'done', progress: 100, file: { name: 'statement-2026-01-business.csv', content_type: 'text/csv; charset=utf-8' } });

    const file = await t.app.request(`${JOBS}/${job.id}/file`, { headers: { 'RAMP-ID-TOKEN': admin } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="statement-2026-01-business.csv"');
    const parsed = Papa.parse<Record<string, string>>(await file.text(), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const of = (type: string) => parsed.data.filter((r) => r.type === type);
    expect(of('charge')).toHaveLength(60);
    expect(of('charge').every((r) => r.currency === 'USD')).toBe(true);
    expect(of('charge').some((r) => r.description === 'Hotel Prior')).toBe(false);
    const usd = (n: number) => minorToDecimal(n, 'USD');
    expect(of('opening_balance')).toEqual([expect.objectContaining({ amount: usd(DECEMBER_CHARGE), currency: 'USD' })]);
    expect(of('payment')).toEqual([expect.objectContaining({ date: '2026-01-20', amount: usd(-DECEMBER_CHARGE) })]);
    expect(of('charges_total')[0]!.amount).toBe(usd(januaryTotal));
    expect(of('closing_balance')[0]!.amount).toBe(usd(januaryTotal));
    const cardSum = of('card_total').reduce((s, r) => s + Math.round(Number(r.amount) * 100), 0);
    expect(cardSum).toBe(januaryTotal);
    expect(of('includes')[0]!.description).toContain('Cleared (settled) card charges');

    // The file is the requester's or an admin's; another person of the business gets 404, as does another business.
    expect((await request(t.app, 'GET', `${JOBS}/${job.id}/file`, { token: employee })).status).toBe(404);
    expect((await request(t.app, 'GET', `${JOBS}/${job.id}`, { token: employee })).status).toBe(404);
    const owner = await signIn(t.app, a.email('owner'));
    expect((await t.app.request(`${JOBS}/${job.id}/file`, { headers: { 'RAMP-ID-TOKEN': owner } })).status).toBe(200);
    expect((await request(t.app, 'GET', `${JOBS}/${job.id}/file`, { token: await signIn(t.app, b.email('owner')) })).status).toBe(404);
  });

  it('makes a card statement as a PDF that pdf.js reads: the card, its charges, the total, the currency', async () => {
    const created = await request(t.app, 'POST', STATEMENTS, { token: employee, body: { scope: 'card', card_id: a.cards.employee, month: '2026-01', format: 'pdf' } });
    expect(created.status, created.text).toBe(202);
    await runAppJobsNow(t.app.deps);
    const file = await t.app.request(`${JOBS}/${(created.body as { id: string }).id}/file`, { headers: { 'RAMP-ID-TOKEN': employee } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(new Uint8Array(await file.arrayBuffer()));
    const [own] = await t.db.query<{ n: number; c: number }>(
      "SELECT sum(amount)::bigint AS n, count(*)::int AS c FROM transactions WHERE card_id = $1 AND state = 'CLEARED'", [a.cards.employee],
    );
    const total = `${Number(own!.n / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`;
    for (const s of ['CARD STATEMENT', 'January 2026', "Employee's card", `Charges (${own!.c})`, total, 'Pending and declined charges are not included']) {
      expect(text).toContain(s);
    }
  });

  it('cancels a job nobody runs yet, never one that ended', async () => {
    const created = await request(t.app, 'POST', STATEMENTS, { token: admin, body: { scope: 'business', month: '2026-01', format: 'pdf' } });
    const id = (created.body as { id: string }).id;
    // The in-app runner may take it first: either it is canceled, or it ran and cancelling says why not.
    const cancel = await request(t.app, 'DELETE', `${JOBS}/${id}`, { token: admin });
    await runAppJobsNow(t.app.deps);
    const after = asyncJobSchema.parse((await request(t.app, 'GET', `${JOBS}/${id}`, { token: admin })).body);
    if (cancel.status === 200) expect(after.state).toBe('canceled');
    else expect([refusal(cancel), after.state]).toEqual([[422, 'REQUEST_7001'], 'done']);
    expect(refusal(await request(t.app, 'DELETE', `${JOBS}/${id}`, { token: admin }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'DELETE', `${JOBS}/${id}`, { token: employee }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${JOBS}/${randomUUID()}`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    const list = (await request(t.app, 'GET', JOBS, { token: admin })).body as { data: { id: string }[] };
    expect(list.data.map((j) => j.id)).toContain(id);
    expect(list.data.length).toBeGreaterThanOrEqual(2);
  });
});
