import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorV2Schema } from '../../schema/errors.ts';
import { openApiPath } from '../../schema/openapi/generate.ts';
import { runMaintenanceCommand } from '../domain/maintenance.ts';
import { markUnsubscribed } from '../domain/phone/confirmation.ts';
import { inSupportedRegion } from '../domain/phone/regions.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';
import { testClock } from './identity-test-kit.ts';
import { registerPlatformRoutes } from './platform.ts';

const clock = testClock(Date.UTC(2026, 0, 31, 12));
const DAY_MS = 24 * 60 * 60 * 1000;
const SUBS = '/v1/auth/billing/subscriptions';
const sub = (product: string) => `/v1/auth/billing/subscription/${product}`;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

describe.each(await testDatabases())('platform calls on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });
  /** The app with the platform routes in front, as app.ts mounts them before the catalogue. */
  const gated = () => {
    const outer = new Hono();
    registerPlatformRoutes(outer, t.app.deps);
    outer.route('/', t.app);
    return outer;
  };

  describe('GET /v1/openapi.json and answers checked against it by an independent JSON Schema validator', () => {
    it('serves the document, and real answers validate against their documented schemas (ajv, draft 2020-12)', async () => {
      const f = await makeBusiness(t.db, { transactions: 3 });
      const admin = await signIn(t.app, f.email('admin'));
      const res = await request(t.app, 'GET', '/v1/public/openapi.json');
      expect(res.status).toBe(200);
      const doc = res.body;
      expect((await request(gated(), 'GET', '/v1/openapi.json')).body).toEqual(doc);
      expect(doc.openapi).toBe('3.1.0');
      const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ ...doc, $id: 'https://ledgerline.test/openapi.json' });
      const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
      const check = (path: string, method: string, status: string, body: unknown) => {
        const where = `paths/${pointer(openApiPath(path))}/${method}/responses/${status}`;
        const responseRef = status === '2XX' ? `${where}/content/application~1json/schema` : 'components/schemas/ErrorV2';
        const validate = ajv.getSchema(`https://ledgerline.test/openapi.json#/${responseRef}`)!;
        expect(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
        return validate;
      };
      const answers: [string, string, string, string | undefined][] = [
        ['GET', '/v1/auth/transactions', '/v1/auth/transactions', admin],
        ['GET', '/v1/auth/identity', '/v1/auth/identity', admin],
        ['GET', SUBS, '/v1/auth/billing/subscriptions', admin],
        ['GET', '/v1/public/maintenance', '/v1/public/maintenance', undefined],
        ['GET', '/v1/public/config', '/v1/public/config', undefined],
      ];
      for (const [method, url, path, token] of answers) {
        const answer = await request(t.app, method, url, { token });
        expect(answer.status, answer.text).toBe(200);
        check(path, method.toLowerCase(), '2XX', answer.body);
      }
      const started = await request(t.app, 'PUT', sub('TRAVEL'), { token: admin });
      const validate = check('/v1/auth/billing/subscription/:product', 'put', '2XX', started.body);
      // The documented schema is a real check: a wrong answer fails it.
      expect(validate({ ...started.body, status: 'PAUSED' })).toBe(false);
      const again = await request(t.app, 'PUT', sub('TRAVEL'), { token: admin });
      expect(refusal(again)).toEqual([422, 'BILLING_7002']);
      check('/v1/auth/billing/subscription/:product', 'put', '422', again.body);
    });
  });

  describe('billing subscriptions', () => {
    let f: Fixture;
    let admin: string;
    const fresh = async () => {
      f = await makeBusiness(t.db, { transactions: 0 });
      admin = await signIn(t.app, f.email('admin'));
    };

    it('lists every product inactive, with its monthly price in USD minor units', async () => {
      await fresh();
      const res = await request(t.app, 'GET', SUBS, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.items.map((s: { product: string; status: string }) => [s.product, s.status])).toEqual([
        ['PLUS', 'INACTIVE'], ['TRAVEL', 'INACTIVE'], ['PROCUREMENT', 'INACTIVE'], ['BILL_PAY_PLUS', 'INACTIVE'],
      ]);
      expect(res.body.items[0]).toMatchObject({ kind: 'PLAN', monthly_price: { amount: 49_900, currency: 'USD' } });
    });

    it('start, a second start (BILLING_7002), cancel at the period end, a second cancel (BILLING_7001), resume', async () => {
      await fresh();
      const started = await request(t.app, 'PUT', sub('PLUS'), { token: admin });
      expect(started.status, started.text).toBe(200);
      // Started on January 31st: the month ends on the last day of February.
      expect(started.body).toMatchObject({
        status: 'ACTIVE', started_at: '2026-01-31T12:00:00.000Z',
        current_period_start: '2026-01-31T12:00:00.000Z', current_period_end: '2026-02-28T12:00:00.000Z',
      });
      expect(refusal(await request(t.app, 'PUT', sub('PLUS'), { token: admin }))).toEqual([422, 'BILLING_7002']);
      const canceled = await request(t.app, 'DELETE', sub('PLUS'), { token: admin, body: { reason: 'TOO_EXPENSIVE', feedback: 'Only need cards' } });
      expect(canceled.status, canceled.text).toBe(200);
      expect(canceled.body).toMatchObject({ status: 'CANCELING', current_period_end: '2026-02-28T12:00:00.000Z', cancel_reason: 'TOO_EXPENSIVE' });
      const twice = await request(t.app, 'DELETE', sub('PLUS'), { token: admin, body: { reason: 'TOO_EXPENSIVE' } });
      expect(refusal(twice)).toEqual([422, 'BILLING_7001']);
      const [row] = await t.db.query<{ cancel_feedback: string }>('SELECT cancel_feedback FROM billing_subscriptions WHERE business_id = $1', [f.businessId]);
      expect(row!.cancel_feedback).toBe('Only need cards');
      // Resuming before the period ends keeps the same period (nothing billed twice).
      const resumed = await request(t.app, 'PUT', sub('PLUS'), { token: admin });
      expect(resumed.body).toMatchObject({ status: 'ACTIVE', started_at: '2026-01-31T12:00:00.000Z', cancel_reason: null });
    });

    it('a canceled product ends at its period end; then it can be started anew', async () => {
      await fresh();
      const startedAt = clock.ms;
      try {
        await request(t.app, 'PUT', sub('TRAVEL'), { token: admin });
        await request(t.app, 'DELETE', sub('TRAVEL'), { token: admin, body: { reason: 'NOT_USING' } });
        clock.advance(29 * DAY_MS);
        const later = await signIn(t.app, f.email('admin'));
        const list = await request(t.app, 'GET', SUBS, { token: later });
        expect(list.body.items.find((s: { product: string }) => s.product === 'TRAVEL').status).toBe('INACTIVE');
        expect(refusal(await request(t.app, 'DELETE', sub('TRAVEL'), { token: later, body: { reason: 'NOT_USING' } }))).toEqual([422, 'BILLING_7001']);
        const again = await request(t.app, 'PUT', sub('TRAVEL'), { token: later });
        expect(again.body).toMatchObject({ status: 'ACTIVE', started_at: new Date(clock.ms).toISOString() });
        // An active product rolls into its next month on its own.
        clock.advance(40 * DAY_MS);
        const rolled = await request(t.app, 'GET', SUBS, { token: await signIn(t.app, f.email('admin')) });
        const travel = rolled.body.items.find((s: { product: string }) => s.product === 'TRAVEL');
        expect(travel.status).toBe('ACTIVE');
        expect(Date.parse(travel.current_period_start)).toBeLessThanOrEqual(clock.ms);
        expect(Date.parse(travel.current_period_end)).toBeGreaterThan(clock.ms);
      } finally {
        clock.ms = startedAt;
      }
    });

    it('admins only (403), bad products and bodies answer 422, another business never sees this one', async () => {
      await fresh();
      const employee = await signIn(t.app, f.email('employee'));
      expect(refusal(await request(t.app, 'GET', SUBS, { token: employee }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'PUT', sub('PLUS'), { token: employee }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'PUT', sub('GOLD'), { token: admin }))).toEqual([422, 'REQUEST_7001']);
      expect(refusal(await request(t.app, 'DELETE', sub('PLUS'), { token: admin }))).toEqual([422, 'REQUEST_7001']);
      expect(refusal(await request(t.app, 'DELETE', sub('PLUS'), { token: admin, body: { reason: 'BORED' } }))).toEqual([422, 'REQUEST_7001']);
      expect(refusal(await request(t.app, 'DELETE', sub('PLUS'), { token: admin, body: { reason: 'OTHER', extra: 1 } }))).toEqual([422, 'REQUEST_7001']);
      await request(t.app, 'PUT', sub('PROCUREMENT'), { token: admin });
      const other = await makeBusiness(t.db, { transactions: 0 });
      const otherAdmin = await signIn(t.app, other.email('admin'));
      const theirs = await request(t.app, 'GET', SUBS, { token: otherAdmin });
      expect(theirs.body.items.every((s: { status: string }) => s.status === 'INACTIVE')).toBe(true);
      expect(refusal(await request(t.app, 'DELETE', sub('PROCUREMENT'), { token: otherAdmin, body: { reason: 'OTHER' } }))).toEqual([422, 'BILLING_7001']);
    });
  });

  describe('scheduled maintenance (INFRA_7001)', () => {
    it('writes answer 503 with Retry-After and the message; reads, sign-in and sign-out work; off ends it', async () => {
      const f = await makeBusiness(t.db, { transactions: 1 });
      const app = gated();
      const admin = await signIn(app, f.email('admin'));
      const until = new Date(clock.ms + 30 * 60_000).toISOString();
      const said = await runMaintenanceCommand(t.db, ['on', '--until', until, '--message', 'Database upgrade.'], new Date(clock.ms));
      expect(said).toContain('ON until');
      try {
        const state = await request(app, 'GET', '/v1/public/maintenance');
        expect(state.body).toEqual({ active: true, until, message: 'Database upgrade.' });
        const write = await request(app, 'PUT', sub('PLUS'), { token: admin });
        expect(refusal(write)).toEqual([503, 'INFRA_7001']);
        expect(errorV2Schema.parse(write.body).error_v2.message).toContain('Database upgrade.');
        expect(write.headers.get('Retry-After')).toBe('1800');
        const post = await request(app, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Acme' } });
        expect(refusal(post)).toEqual([503, 'INFRA_7001']);
        expect((await request(app, 'GET', SUBS, { token: admin })).status).toBe(200);
        expect((await request(app, 'GET', '/v1/auth/transactions', { token: admin })).status).toBe(200);
        const other = await signIn(app, f.email('employee'));
        expect((await request(app, 'POST', '/v1/auth/users/current/sign-out', { token: other })).status).toBe(200);
        // The window ends on its own at `until`.
        clock.advance(30 * 60_000);
        expect((await request(app, 'PUT', sub('PLUS'), { token: admin })).status).toBe(200);
        clock.advance(-30 * 60_000);
      } finally {
        expect(await runMaintenanceCommand(t.db, ['off'], new Date(clock.ms))).toBe('Maintenance is off.');
      }
      expect((await request(app, 'GET', '/v1/public/maintenance')).body).toEqual({ active: false, until: null, message: null });
    });

    it('the ops command refuses a bad --until', async () => {
      const now = new Date(clock.ms);
      await expect(runMaintenanceCommand(t.db, ['on'], now)).rejects.toThrow(/--until/);
      await expect(runMaintenanceCommand(t.db, ['on', '--until', 'tomorrow'], now)).rejects.toThrow(/--until/);
      await expect(runMaintenanceCommand(t.db, ['on', '--until', '2020-01-01T00:00:00Z'], now)).rejects.toThrow(/future/);
      await expect(runMaintenanceCommand(t.db, ['on', '--until', '2026-03-01T00:00:00Z'], now)).rejects.toThrow(/72 hours/);
      await expect(runMaintenanceCommand(t.db, ['sideways'], now)).rejects.toThrow(/Unknown command/);
      expect(await runMaintenanceCommand(t.db, ['status'], now)).toBe('Maintenance is off.');
    });
  });

  describe('phone numbers confirmed by text message', () => {
    const PHONE = '/v1/auth/users/current/phone-number';
    const lastText = async (to: string) => {
      const [row] = await t.db.query<{ body: string }>('SELECT body FROM dev_outbox WHERE recipient = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [to]);
      return /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
    };
    const signedIn = async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('employee'));
      const up = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
      return { f, token, sensitive: up.body.id_token as string };
    };

    it('needs the sensitive scope; texts a code; a wrong code counts; the right one confirms the number', async () => {
      const { token, sensitive } = await signedIn();
      const number = '+14155550123';
      expect(refusal(await request(t.app, 'POST', `${PHONE}/send-code`, { token, body: { phone_number: number } }))).toEqual([403, 'AUTH_7016']);
      expect((await request(t.app, 'GET', PHONE, { token })).body).toEqual({ phone_number: null, confirmed: false, confirmed_at: null, pending: null });
      const sent = await request(t.app, 'POST', `${PHONE}/send-code`, { token: sensitive, body: { phone_number: number } });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.pending).toEqual({ phone_number: number, expires_at: new Date(clock.ms + 10 * 60_000).toISOString() });
      const code = (await lastText(number))!;
      expect(code).toMatch(/^\d{6}$/);
      const wrong = code === '000000' ? '111111' : '000000';
      expect(refusal(await request(t.app, 'POST', '/v1/auth/users/current/confirm-phone-number', { token: sensitive, body: { code: wrong } }))).toEqual([422, 'PROFILE_7017']);
      const [row] = await t.db.query<{ attempts: number }>('SELECT attempts FROM phone_verifications WHERE phone_number = $1', [number]);
      expect(row!.attempts).toBe(1);
      const confirmed = await request(t.app, 'POST', '/v1/auth/users/current/confirm-phone-number', { token: sensitive, body: { code } });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.body).toMatchObject({ phone_number: number, confirmed: true, pending: null });
      // Used up: the same code again is refused.
      expect(refusal(await request(t.app, 'POST', '/v1/auth/users/current/confirm-phone-number', { token: sensitive, body: { code } }))).toEqual([422, 'PROFILE_7017']);
    });

    it('6019 out of region, 6020 after STOP, 422 for a number that is not E.164, PROFILE_7016 once expired, 429 past the limit', async () => {
      const { f, sensitive } = await signedIn();
      const send = (phone_number: string) => request(t.app, 'POST', `${PHONE}/send-code`, { token: sensitive, body: { phone_number } });
      expect(refusal(await send('+8613800138000'))).toEqual([422, '6019']);
      expect(refusal(await send('+18765550123'))).toEqual([422, '6019']);
      expect(refusal(await send('0044 20 7946 0000'))).toEqual([422, 'REQUEST_7001']);
      await markUnsubscribed(t.db, '+447700900123', new Date(clock.ms));
      expect(refusal(await send('+447700900123'))).toEqual([422, '6020']);
      expect((await send('+4915123456789')).status).toBe(200);
      const code = (await lastText('+4915123456789'))!;
      const startedAt = clock.ms;
      clock.advance(11 * 60_000);
      try {
        const again = await signIn(t.app, f.email('employee'));
        const stepped = (await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: again, body: { password: FIXTURE_PASSWORD } })).body.id_token;
        const late = await request(t.app, 'POST', '/v1/auth/users/current/confirm-phone-number', { token: stepped, body: { code } });
        expect(refusal(late)).toEqual([422, 'PROFILE_7016']);
      } finally {
        clock.ms = startedAt;
      }
      for (let i = 0; i < 4; i++) expect((await send('+33612345678')).status).toBe(200);
      const limited = await send('+33612345678');
      expect(refusal(limited)).toEqual([429, 'AUTH_7029']);
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    });

    it('supported regions: the US and Canada, the UK and the EU', () => {
      expect(['+14155550123', '+16135550123', '+447700900123', '+33612345678', '+35312345678'].every(inSupportedRegion)).toBe(true);
      expect(['+18095550123', '+61412345678', '+8613800138000', '+4191234567', '+1415555012'].some(inSupportedRegion)).toBe(false);
    });
  });
});
