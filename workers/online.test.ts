import { describe, expect, it } from 'vitest';
import { createVendor, revealVendorBankAccount } from '../schema/api/calls-vendors.ts';
import { transactionCode } from '../schema/commands/transaction-code.ts';
import type { HttpClient, HttpResult } from '../sync/index.ts';
import type { CommandResult } from './contracts/views.ts';
import { bindDomain, call, offlineFailure, onlineDomain, via, type OnlinePort, type OutboxPort } from './online.ts';

/** A port whose HTTP client answers `answer` and records what was asked. */
function port(answer: HttpResult<unknown>, online = true) {
  const sent: { id: string; opts: unknown }[] = [];
  const ran: { name: string; input: unknown }[] = [];
  const expired: number[] = [];
  let kicks = 0;
  const http = { call: async (def: { id: string }, opts: unknown) => (sent.push({ id: def.id, opts }), answer) } as unknown as HttpClient;
  const p: OnlinePort & OutboxPort = {
    hub: { online },
    requireHttp: () => http,
    watch401: (res) => {
      if (!res.ok && res.kind === 'http' && res.status === 401) expired.push(1);
      return res;
    },
    host: {
      runtime: {
        commands: {
          run: async (name: string, input: unknown) => {
            ran.push({ name, input });
            return { result: { ok: true, command_id: 'c1', affected: 1, took_ms: 0 } satisfies CommandResult };
          },
        },
      },
      engine: { kick: () => void (kicks += 1) },
    },
  };
  return { p, sent, ran, expired, kicks: () => kicks };
}

const error = { error_code: 'REQUEST_7001', message: 'No.' };
const OFFLINE = offlineFailure('Offline: nothing was sent.');

describe('call(def, input): one path, typed by the catalogue', () => {
  it('sends a call definition straight online and answers its response as data', async () => {
    const t = port({ ok: true, status: 200, data: { id: 'v1', name: 'Acme' } });
    const r = await call(t.p, createVendor, { body: { name: 'Acme' } }, OFFLINE);
    expect(r).toEqual({ ok: true, data: { id: 'v1', name: 'Acme' } });
    expect(t.sent).toEqual([{ id: createVendor.id, opts: { body: { name: 'Acme' } } }]);
    expect(t.ran).toEqual([]);
  });

  it('refuses offline before any request, and a request that never left as offline too', async () => {
    const off = port({ ok: true, status: 200, data: {} }, false);
    expect(await call(off.p, createVendor, { body: { name: 'A' } }, OFFLINE)).toBe(OFFLINE);
    expect(off.sent).toEqual([]);
    const lost = port({ ok: false, kind: 'network', maybeSent: false, error });
    expect(await call(lost.p, createVendor, { body: { name: 'A' } }, OFFLINE)).toBe(OFFLINE);
    // Maybe sent: the server may have acted, so it is the failure, not "offline".
    const maybe = port({ ok: false, kind: 'timeout', maybeSent: true, error });
    expect(await call(maybe.p, createVendor, { body: { name: 'A' } }, OFFLINE)).toEqual({ ok: false, error });
  });

  it('words a step-up (local gate or AUTH_7016) and lets a 401 expire the session', async () => {
    const gate = port({ ok: false, kind: 'step_up', scope: 'sensitive', error });
    expect(await call(gate.p, revealVendorBankAccount, { params: { payee_uuid: 'p' } })).toEqual({ ok: false, error, step_up: 'sensitive' });
    const stale = port({ ok: false, kind: 'http', status: 403, retryAfter: null, error: { error_code: 'AUTH_7016', message: 'Step up.' } });
    expect(await call(stale.p, revealVendorBankAccount, { params: { payee_uuid: 'p' } })).toMatchObject({ step_up: 'sensitive' });
    const gone = port({ ok: false, kind: 'http', status: 401, retryAfter: null, error: { error_code: 'AUTH_7003', message: 'Expired.' } });
    expect(await call(gone.p, createVendor, { body: { name: 'A' } })).toMatchObject({ ok: false, error: { error_code: 'AUTH_7003' } });
    expect(gone.expired).toEqual([1]);
  });

  it('queues a command definition through the outbox (the runner), then kicks the engine', async () => {
    const t = port({ ok: true, status: 200, data: {} });
    const input = { transaction_id: 't1', patch: { memo: 'x' } };
    // @ts-expect-error a call definition's options are not a command's input
    void (() => call(t.p, transactionCode, { body: {} }));
    expect(await call(t.p, transactionCode, input)).toEqual({ ok: true, command_id: 'c1', affected: 1, took_ms: 0 });
    expect(t.ran).toEqual([{ name: 'transaction.code', input }]);
    expect(t.sent).toEqual([]);
    expect(t.kicks()).toBe(1);
  });
});

describe('onlineDomain: methods built from call definitions', () => {
  const DOMAIN = onlineDomain(OFFLINE, {
    rename: via(createVendor, (name: string) => ({ body: { name } }), (vendor) => ({ vendor })),
    plain: via(createVendor, () => ({ body: { name: 'B' } })),
  });

  it('maps the method’s arguments to the call and names what the UI gets of the answer', async () => {
    const t = port({ ok: true, status: 200, data: { id: 'v1' } });
    const api = bindDomain(t.p, DOMAIN);
    expect(Object.keys(api)).toEqual(['rename', 'plain']);
    expect(await api.rename('Acme')).toEqual({ ok: true, vendor: { id: 'v1' } });
    expect(await api.plain()).toEqual({ ok: true });
    expect(t.sent.map((s) => s.opts)).toEqual([{ body: { name: 'Acme' } }, { body: { name: 'B' } }]);
    expect(await bindDomain(port({ ok: true, status: 200, data: {} }, false).p, DOMAIN).rename('x')).toBe(OFFLINE);
  });
});
