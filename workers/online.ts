import type { CallDef, CallResponse } from '../schema/api/define-call.ts';
import { errorBody } from '../schema/errors.ts';
import type { CommandInput, CommandName } from '../schema/commands/index.ts';
import type { CallOptions, HttpClient, HttpResult } from '../sync/index.ts';
import type { ActionResult, CommandResult, OnlineFailure } from './contracts/views.ts';

/**
 * The one path of the worker's calls, typed by the catalogue (schema/api/calls*.ts and the
 * commands of schema/commands): a command definition goes through the outbox (the open mirror's
 * CommandRunner, durable before it resolves, sent by the sync engine), a call definition goes
 * straight to the server, online only. The online-only domains (vendors, bill actions, accounting,
 * team, organisation, SSO, …) are objects of methods built from their call definitions with
 * `onlineDomain`; a domain's API type is derived from that object (`OnlineApi`).
 */

/** What a direct call needs of the worker's context (WorkerContext has it). */
export interface OnlinePort {
  readonly hub: { readonly online: boolean };
  requireHttp(): HttpClient;
  /** A 401 expires the session, as when the sync engine hears it. */
  watch401<R extends HttpResult<unknown>>(res: R): R;
}

/** What the outbox path needs: the open mirror's command runner and the leader's engine to kick. */
export interface OutboxPort {
  readonly host: {
    readonly runtime: { readonly commands: { run(name: CommandName, input: never): Promise<{ result: CommandResult }> } } | null;
    readonly engine: { kick(): void } | null;
  };
}

/** A direct call's answer: the catalogue's response, or the refusal as data. */
export type Sent<T> = { ok: true; data: T } | OnlineFailure;

/** Sends one call definition; a failure is data (the server's error_v2, a step-up request, or offline). */
export type Send = <C extends CallDef>(def: C, opts: CallOptions<C>) => Promise<Sent<CallResponse<C>>>;

/** A direct call's failure as the UI sees it: a step-up request (local gate or AUTH_7016) or the server's error. */
export function actionFailure(res: Exclude<HttpResult<unknown>, { ok: true }>): Extract<ActionResult, { ok: false }> {
  if (res.kind === 'step_up') return { ok: false, error: res.error, step_up: res.scope };
  if (res.kind === 'http' && res.error.error_code === 'AUTH_7016') return { ok: false, error: res.error, step_up: 'sensitive' };
  return { ok: false, error: res.error };
}

/** A refusal before any request: the domain's words for "offline, nothing was sent". */
export function offlineFailure(message: string): OnlineFailure {
  return { ok: false, offline: true, error: { error_code: 'OFFLINE', message } };
}

/** An HTTP answer as a direct call's: a request that never reached the server is the same as offline. */
export function answerOf<T>(port: OnlinePort, res: HttpResult<T>, offline: OnlineFailure): Sent<T> {
  const r = port.watch401(res);
  if (r.ok) return { ok: true, data: r.data };
  if ((r.kind === 'network' || r.kind === 'timeout') && !r.maybeSent) return offline;
  return actionFailure(r);
}

/** The typed `send` of one domain: refused at once when offline. */
function sender(port: OnlinePort, offline: OnlineFailure): Send {
  return async (def, opts) => {
    if (!port.hub.online) return offline;
    return answerOf(port, await port.requireHttp().call(def, opts), offline);
  };
}

/** A command definition of the catalogue (schema/commands), as `call` tells it from a call definition. */
interface CommandLike {
  readonly name: string;
  readonly apply: unknown;
  readonly confirm: unknown;
}
type Definition = CallDef | CommandLike;
/** What `call` takes for a definition: a command's input, or a call's params, query and body. */
export type CallInputOf<D extends Definition> = D extends CommandLike
  ? (D['name'] extends CommandName ? CommandInput<D['name']> : never)
  : D extends CallDef ? CallOptions<D> : never;
/** What `call` answers: a queued command's result, or a direct call's answer. */
export type CallAnswerOf<D extends Definition> = D extends CommandLike ? CommandResult : D extends CallDef ? Sent<CallResponse<D>> : never;

const isCommand = (def: Definition): def is CommandLike => 'apply' in def && 'confirm' in def;

/**
 * `call(def, input)`: a command definition through the outbox (then the engine is kicked), a call
 * definition straight online (`offline` is the refusal when there is no connection).
 */
export async function call<D extends Definition>(
  port: OnlinePort & OutboxPort,
  def: D,
  input: CallInputOf<D>,
  offline: OnlineFailure = offlineFailure('You’re offline. This needs a connection: nothing was sent.'),
): Promise<CallAnswerOf<D>> {
  if (!isCommand(def)) return (await sender(port, offline)(def, input as CallOptions<CallDef>)) as CallAnswerOf<D>;
  const rt = port.host.runtime;
  if (!rt) return { ok: false, error: errorBody('AUTH_7002').error_v2 } as CallAnswerOf<D>;
  const { result } = await rt.commands.run(def.name as CommandName, input as never);
  if (result.ok) port.host.engine?.kick();
  return result as CallAnswerOf<D>;
}

/** One method of an online domain: given the domain's `send`, the function the UI calls. */
export type OnlineMethod<A extends unknown[] = never, R = unknown> = (send: Send, port: OnlinePort, offline: OnlineFailure) => (...args: A) => Promise<R>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * A method that is one call: `opts` turns the method's arguments into the call's params, query
 * and body; `answer` names what the UI gets of the response (`{ ok: true, ...answer(data) }`).
 */
export function via<C extends CallDef, A extends unknown[], R extends object = object>(
  def: C,
  opts: (...args: A) => CallOptions<C>,
  answer?: (data: CallResponse<C>) => R,
): OnlineMethod<A, Simplify<{ ok: true } & R> | OnlineFailure> {
  return (send) => async (...args) => {
    const r = await send(def, opts(...args));
    if (!r.ok) return r;
    return { ok: true, ...(answer ? answer(r.data) : {}) } as Simplify<{ ok: true } & R>;
  };
}

/** A method that is more than one call (pages, a choice of definitions): written against `send`. */
export function custom<A extends unknown[], R>(method: (send: Send, port: OnlinePort, offline: OnlineFailure) => (...args: A) => Promise<R>): OnlineMethod<A, R> {
  return method;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMethod = OnlineMethod<any, any>;

/** An online-only domain: its refusal when offline and its methods. */
export interface OnlineDomain<S extends Record<string, AnyMethod>> {
  offline: OnlineFailure;
  methods: S;
}

/** The UI-facing API of a domain, derived from its methods (and so from their call definitions). */
export type OnlineApi<D extends OnlineDomain<Record<string, AnyMethod>>> = {
  [K in keyof D['methods']]: ReturnType<D['methods'][K]>;
};

export function onlineDomain<S extends Record<string, AnyMethod>>(offline: OnlineFailure, methods: S): OnlineDomain<S> {
  return { offline, methods };
}

/** The domain's methods bound to the worker's context: the handler object data-service.ts joins. */
export function bindDomain<D extends OnlineDomain<Record<string, AnyMethod>>>(port: OnlinePort, domain: D): OnlineApi<D> {
  const send = sender(port, domain.offline);
  const api: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(domain.methods)) api[name] = method(send, port, domain.offline);
  return api as OnlineApi<D>;
}

/** A list is read to its end, page after page, but never past this many pages (a runaway cursor). */
export const MAX_LIST_PAGES = 20;

/** Every row of a paged list call, in the server's order; the first refusal is the answer. */
export async function allPages<T>(
  page: (start: string | undefined) => Promise<Sent<{ data: T[]; page: { next: string | null } }>>,
): Promise<{ ok: true; rows: T[] } | OnlineFailure> {
  const rows: T[] = [];
  let start: string | undefined;
  for (let i = 0; i < MAX_LIST_PAGES; i += 1) {
    const r = await page(start);
    if (!r.ok) return r;
    rows.push(...r.data.data);
    if (!r.data.page.next) break;
    start = r.data.page.next;
  }
  return { ok: true, rows };
}
