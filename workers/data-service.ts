import type { RxStorage } from 'rxdb';
import { z } from 'zod';
import { currentIdentity, signIn as signInCall, signOut as signOutCall } from '../schema/api/calls.ts';
import {
  changePassword as changePasswordCall, postErrorReport, postTelemetry, signOutAllSessions as signOutAllCall,
  checkMfa as checkMfaCall, sendEmailOtp, signUp as signUpCall, stepUp as stepUpCall, totpStart, totpVerify,
  verifyMfa as verifyMfaCall,
} from '../schema/api/calls-identity.ts';
import { switchBusiness as switchBusinessCall } from '../schema/api/calls-business.ts';
import { errorBody } from '../schema/errors.ts';
import type { FeatureFlags } from '../schema/feature-flags.ts';
import { requestTimeoutMs, tokenWaitMs, type Platform } from '../schema/platform.ts';
import type { WebConfig } from '../schema/web-config.ts';
import type { TransactionFilter } from '../schema/transaction-query.ts';
import type { QueriedCollection } from '../schema/collections.ts';
import type { CollectionPage, CollectionQuery, RowView } from './api.ts';
import type { CodingPatch } from '../schema/commands/coding-patch.ts';
import {
  createHttpClient, createSyncEngine, decodeTokenClaims, isFullyScoped, StepUpTokens, tokenScopes, transition, waitForFullToken,
  type Clock, type HttpClient, type HttpResult, type OutboxEntry, type SessionPort, type SyncEngine, type SyncStatus, type Transport,
} from '../sync/index.ts';
import type {
  ActionResult, CommandResult, DataApi, EmailCodeResult, ErrorReportInput, PendingMfaStatus, QueryResult, ReferenceData,
  SessionInfo, SignInResult, SignUpInput, StepUpInput, SwitchBusinessResult, TelemetryEventInput, TotpSetup, TransactionQuery, TransactionView,
} from './api.ts';
import { businessChoices } from './business-choices.ts';
import { actionFailure, cachedFlags, loadWebConfig, refreshFlags, toAction } from './identity.ts';
import { mirrorDbName } from './db.ts';
import type { LeaderElector } from './leader.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import type { SessionStore, StoredSession } from './session-store.ts';
import { StatusHub } from './status-hub.ts';

/**
 * DataApi, the worker's side of the Comlink boundary. The worker is the only place that talks
 * to the server: sign-in and identity through the sync HTTP client, everything else through the
 * sync engine, which runs only in the leader tab (Web Locks). Every tab reads the same mirror.
 */
export interface DataServiceDeps {
  sessionStore: SessionStore;
  transport: Transport;
  clock: Clock;
  elector: LeaderElector;
  /** Mirror storage; Dexie on the browser's IndexedDB by default. */
  storage?: RxStorage<unknown, unknown>;
  multiInstance?: boolean;
  /** Off in unit tests that exercise the mirror without a server. */
  sync?: boolean;
  defer?: (fn: () => void) => void;
  online?: boolean;
}

const SIGN_OUT_TIMEOUT_MS = 3_000;
const BUSINESS_ID = z.uuid();
const MFA_NEEDED = { message: 'Enter the code from your authenticator app.', error_code: 'MFA_REQUIRED' };
const NO_MFA_PENDING = { message: 'Sign in with your password first.', error_code: 'MFA_NOT_STARTED' };
/** A sign-in waiting for its second factor: the half-scoped token stays in memory only. */
interface PendingMfa {
  token: string;
  /** Re-authentication in place: the account that must come back. */
  expectUserId: string | undefined;
  /** The address the sign-in used: where a first enrolment's email code goes. */
  email: string | null;
}

export class DataService implements DataApi {
  private baseUrl = '';
  private http: HttpClient | null = null;
  private stored: StoredSession | null = null;
  private runtime: MirrorRuntime | null = null;
  private engine: SyncEngine | null = null;
  private withdraw: (() => void) | null = null;
  private initOnce: Promise<SessionInfo | null> | null = null;
  private readonly hub: StatusHub;
  private platform: Platform = 'web';
  private pendingMfa: PendingMfa | null = null;
  private readonly stepUps: StepUpTokens;
  private readonly sessionPort: SessionPort = {
    getToken: () => (this.stored && !this.stored.expired ? this.stored.token : null),
    // The stepped-up token rides only on calls that need its scope, and only while it lives.
    tokenFor: (auth) => this.stepUps.tokenFor(auth, this.sessionPort.getToken()),
    onUnauthorized: () => void this.expireSession(),
  };

  constructor(private readonly deps: DataServiceDeps) {
    this.hub = new StatusHub(deps.clock, deps.online ?? true);
    this.stepUps = new StepUpTokens(deps.clock);
  }

  init(opts: { baseUrl: string; platform?: Platform }): Promise<SessionInfo | null> {
    // React may call init twice (StrictMode); both calls share one start.
    this.initOnce ??= this.start(opts.baseUrl, opts.platform ?? 'web');
    return this.initOnce;
  }

  private async start(baseUrl: string, platform: Platform): Promise<SessionInfo | null> {
    this.baseUrl = baseUrl;
    this.platform = platform;
    this.http = this.httpWith(this.sessionPort);
    this.stored = await this.deps.sessionStore.get();
    if (!this.stored) {
      this.hub.setPhase('signed_out');
      return null;
    }
    await this.openMirror(this.stored);
    void this.refreshIdentity();
    return this.stored.session;
  }

  signIn(email: string, password: string, businessId?: string | null): Promise<SignInResult> {
    return this.passwordSignIn(email, password, undefined, businessId ?? undefined);
  }

  async switchBusiness(businessId: string): Promise<SwitchBusinessResult> {
    const stored = this.stored;
    if (!stored || stored.expired) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
    if (stored.session.business.id === businessId) return { ok: true, session: stored.session, left_behind: null };
    // Counted before the switch closes this mirror: its outbox stays on disk for next time.
    const unsent = this.runtime?.outboxIndex.entries().length ?? 0;
    const res = this.watch401(await this.requireHttp().call(switchBusinessCall, { body: { business_id: businessId } }));
    if (!res.ok) return { ok: false, error: res.error };
    const done = await this.afterPassword(res.data.id_token, res.data.mfa_required, undefined, stored.session.user.email);
    if (!done.ok) return done;
    const left_behind = unsent > 0 ? { business_name: stored.session.business.name, changes: unsent } : null;
    return { ok: true, session: done.session, left_behind };
  }

  async signUp(input: SignUpInput): Promise<SignInResult> {
    const res = await this.requireHttp().call(signUpCall, { body: input });
    if (!res.ok) return { ok: false, error: res.error };
    return this.afterPassword(res.data.id_token, res.data.mfa_required, undefined, input.email);
  }

  async verifyMfa(code: string): Promise<SignInResult> {
    const pending = this.pendingMfa;
    if (!pending) return { ok: false, error: NO_MFA_PENDING };
    const res = await this.boundTo(pending.token).call(verifyMfaCall, { body: { code: code.trim() } });
    if (!res.ok) return { ok: false, error: res.error, mfa_required: true };
    this.pendingMfa = null;
    return this.completeSignIn(res.data.id_token, true, pending.expectUserId);
  }

  async reauthenticate(password: string): Promise<SignInResult> {
    const stored = this.stored;
    if (!stored) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
    return this.passwordSignIn(stored.session.user.email, password, stored.session.user.id, stored.session.business.id);
  }

  private async passwordSignIn(
    email: string, password: string, expectUserId: string | undefined, businessId: string | undefined,
  ): Promise<SignInResult> {
    // The tab's business comes from a link: anything that is not an id is not sent (nor refused).
    const body = businessId && BUSINESS_ID.safeParse(businessId).success
      ? { email, password, business_id: businessId }
      : { email, password };
    const res = await this.requireHttp().call(signInCall, { body });
    if (!res.ok) return { ok: false, error: res.error };
    return this.afterPassword(res.data.id_token, res.data.mfa_required, expectUserId, email);
  }

  /** The password was right: either the token is already full, or the second factor comes next. */
  private afterPassword(
    token: string, mfaRequired: boolean, expectUserId: string | undefined, email: string | null,
  ): Promise<SignInResult> {
    if (mfaRequired && !isFullyScoped(token)) {
      this.pendingMfa = { token, expectUserId, email };
      return Promise.resolve({ ok: false, error: MFA_NEEDED, mfa_required: true });
    }
    // An abandoned MFA step must not keep steering startTotp/verifyTotp to its old token.
    this.pendingMfa = null;
    return this.completeSignIn(token, mfaRequired, expectUserId);
  }

  private async completeSignIn(candidate: string, mfaEnabled: boolean, expectUserId: string | undefined): Promise<SignInResult> {
    let token: string;
    try {
      // §4: wait (1 s mobile / 10 s web) for a fully scoped token before acting as signed in.
      token = await waitForFullToken({ clock: this.deps.clock, getToken: () => candidate, waitMs: tokenWaitMs(this.platform) });
    } catch {
      return { ok: false, error: errorBody('AUTH_7002').error_v2 };
    }
    // The new token is not stored yet: ask who it belongs to with a client bound to it.
    const who = await this.boundTo(token).call(currentIdentity);
    if (!who.ok) return { ok: false, error: who.error };
    if (expectUserId && who.data.user.id !== expectUserId) {
      return { ok: false, error: { message: 'Sign in again with the same account to keep your unsynced changes.', error_code: 'AUTH_7003' } };
    }
    const claims = decodeTokenClaims(token);
    const session: SessionInfo = {
      user: who.data.user,
      business: who.data.business,
      scopes: tokenScopes(token),
      mfa_enabled: mfaEnabled || claims?.ramp_mfa_required === true,
      businesses: businessChoices(who.data.identity.spend_users, who.data.businesses),
    };
    const dbName = mirrorDbName(session.business.id, session.user.id);
    if (this.stored?.db_name !== dbName) await this.closeMirror(false);
    this.stored = { token, session, db_name: dbName, expired: false, saved_at: this.deps.clock.now() };
    await this.deps.sessionStore.set(this.stored);
    if (!this.runtime) await this.openMirror(this.stored);
    else this.engine?.start(); // same user again: resume what the 401 paused
    this.hub.setPhase(this.engine ? this.engine.status().phase : 'idle');
    this.stepUps.clear();
    void this.refreshFlagsNow();
    return { ok: true, session, mfa_required: mfaEnabled };
  }

  async webConfig(): Promise<WebConfig> {
    return loadWebConfig(this.requireHttp());
  }

  async stepUp(input: StepUpInput): Promise<ActionResult> {
    const res = this.watch401(await this.requireHttp().call(stepUpCall, { body: input }));
    if (!res.ok) return actionFailure(res);
    this.stepUps.set(res.data.id_token, Date.parse(res.data.expires_at));
    // Commands the outbox parked for want of the scope go out now, with the stepped-up token.
    const parked = (this.runtime?.outboxIndex.entries() ?? []).filter((e) => e.state === 'needs_step_up');
    for (const entry of parked) await this.retryCommand(entry.id);
    return { ok: true };
  }

  async changePassword(newPassword: string): Promise<ActionResult> {
    return toAction(this.watch401(await this.requireHttp().call(changePasswordCall, { body: { new_password: newPassword } })));
  }

  async startTotp(): Promise<{ ok: true; setup: TotpSetup } | Extract<ActionResult, { ok: false }>> {
    const pending = this.pendingMfa;
    if (pending) {
      // First enrolment while signing in: the half-scoped token asks; no session to expire.
      const res = await this.boundTo(pending.token).call(totpStart, { body: {} });
      return res.ok ? { ok: true, setup: res.data } : { ok: false, error: res.error };
    }
    const res = this.watch401(await this.requireHttp().call(totpStart, { body: {} }));
    return res.ok ? { ok: true, setup: res.data } : actionFailure(res);
  }

  async verifyTotp(authenticatorId: string, code: string, emailCode?: string): Promise<ActionResult> {
    const params = { authenticator_id: authenticatorId };
    const email_code = emailCode?.trim() || undefined;
    const body = email_code ? { code: code.trim(), email_code } : { code: code.trim() };
    const pending = this.pendingMfa;
    if (pending) {
      // The server's AUTH_7016 here means "confirm the emailed code", not a step-up: shown as is.
      const res = await this.boundTo(pending.token).call(totpVerify, { params, body });
      return res.ok ? { ok: true } : { ok: false, error: res.error };
    }
    const res = this.watch401(await this.requireHttp().call(totpVerify, { params, body }));
    if (res.ok && this.stored) {
      this.stored = { ...this.stored, session: { ...this.stored.session, mfa_enabled: true } };
      await this.deps.sessionStore.set(this.stored);
    }
    return toAction(res);
  }

  async pendingMfaStatus(): Promise<PendingMfaStatus> {
    const pending = this.pendingMfa;
    if (!pending) return { ok: false, error: NO_MFA_PENDING };
    const res = await this.boundTo(pending.token).call(checkMfaCall, { body: {} });
    return res.ok ? { ok: true, totp_enrolled: res.data.totp_enrolled, email: pending.email } : { ok: false, error: res.error };
  }

  async sendEmailCode(): Promise<EmailCodeResult> {
    const pending = this.pendingMfa;
    const res = pending
      ? await this.boundTo(pending.token).call(sendEmailOtp, { body: {} })
      : this.watch401(await this.requireHttp().call(sendEmailOtp, { body: {} }));
    return res.ok ? { ok: true, expires_at: res.data.expires_at } : { ok: false, error: res.error };
  }

  async signOutAllSessions(): Promise<ActionResult> {
    const res = this.watch401(await this.requireHttp().call(signOutAllCall, { body: {} }));
    if (!res.ok) return actionFailure(res);
    // Every session is revoked, this one too: only the local part of sign-out is left.
    await this.forgetLocally();
    return { ok: true };
  }

  async flags(): Promise<FeatureFlags> {
    return cachedFlags(this.runtime);
  }

  async sendTelemetry(events: TelemetryEventInput[]): Promise<void> {
    if (events.length === 0 || !this.hub.online) return;
    await this.requireHttp().call(postTelemetry, { body: { events } });
  }

  async sendErrorReport(report: ErrorReportInput): Promise<void> {
    if (!this.hub.online) return;
    await this.requireHttp().call(postErrorReport, { body: report });
  }

  async signOut(): Promise<void> {
    const token = this.sessionPort.getToken();
    if (token && this.hub.online) {
      // Best effort: the device forgets the token either way.
      await this.requireHttp()
        .call(signOutCall, { body: {}, signal: AbortSignal.timeout(SIGN_OUT_TIMEOUT_MS) })
        .catch(() => undefined);
    }
    await this.forgetLocally();
  }

  private async forgetLocally(): Promise<void> {
    this.pendingMfa = null;
    this.stepUps.clear();
    // Unsent edits keep the mirror on the device until that user signs in again and they are
    // delivered; a mirror with nothing pending is deleted, so no spend data stays behind.
    await this.closeMirror(true);
    await this.deps.sessionStore.clear();
    this.stored = null;
    this.hub.setPhase('signed_out');
  }

  async session(): Promise<SessionInfo | null> {
    return this.stored?.session ?? null;
  }

  async query<C extends QueriedCollection>(collection: C, q: CollectionQuery<C>): Promise<CollectionPage<C>> {
    return this.runtime ? this.runtime.query(collection, q) : { rows: [], total: 0, offset: 0, took_ms: 0 };
  }

  async get<C extends QueriedCollection>(collection: C, id: string): Promise<RowView<C> | null> {
    return this.runtime ? this.runtime.get(collection, id) : null;
  }

  async queryTransactions(q: TransactionQuery): Promise<QueryResult> {
    const rt = this.runtime;
    if (!rt) return { rows: [], total: 0, offset: 0, took_ms: 0 };
    return rt.queryTransactions(q);
  }

  async matchingIds(filter: TransactionFilter): Promise<string[]> {
    return this.runtime ? this.runtime.matchingIds(filter) : [];
  }

  async getTransaction(id: string): Promise<TransactionView | null> {
    return this.runtime ? this.runtime.getTransaction(id) : null;
  }

  async referenceData(): Promise<ReferenceData> {
    const rt = this.runtime;
    if (!rt) return { users: [], departments: [], locations: [], gl_accounts: [], tracking_categories: [], cards: [] };
    // Not `ready`: names must not wait for 100k transactions to load on a cold start.
    await Promise.race([rt.referencesLoaded, rt.ready]);
    return rt.refs.snapshot();
  }

  async codeTransactions(ids: string[], patch: CodingPatch): Promise<CommandResult> {
    const rt = this.runtime;
    if (!rt) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
    const { result } = await rt.codeTransactions(ids, patch);
    if (result.ok) this.engine?.kick();
    return result;
  }

  async outbox(): Promise<OutboxEntry[]> {
    return this.runtime?.outboxIndex.entries() ?? [];
  }

  async retryCommand(id: string): Promise<void> {
    if (this.engine) {
      await this.engine.retry(id);
      return;
    }
    // Follower: make the same transition in the shared store; the leader sees it and sends.
    const rt = this.runtime;
    const entry = await rt?.outboxStore.get(id);
    if (!rt || !entry || !['failed', 'conflict', 'needs_step_up'].includes(entry.state)) return;
    // Rows follow by themselves: every reader re-applies the entry when its state changes.
    await rt.outboxStore.put(transition(entry, { type: 'retry', newKey: crypto.randomUUID() }, this.deps.clock.now()));
  }

  async discardCommand(id: string): Promise<void> {
    if (this.engine) {
      await this.engine.discard(id);
      return;
    }
    const rt = this.runtime;
    const entry = await rt?.outboxStore.get(id);
    if (!rt || !entry || entry.state === 'sending') return;
    await rt.outboxStore.remove(id);
  }

  async status(): Promise<SyncStatus> {
    return this.hub.status();
  }

  async subscribe(onStatus: (s: SyncStatus) => void, onDataChanged: (collections: string[]) => void): Promise<() => void> {
    return this.hub.subscribe(onStatus, onDataChanged);
  }

  async setOnline(online: boolean): Promise<void> {
    const wasOnline = this.hub.online;
    this.hub.setOnline(online);
    this.engine?.setOnline(online);
    if (online && !wasOnline) void this.refreshIdentity();
  }

  /** Test and shutdown hook: closes the mirror and stops syncing. */
  async dispose(): Promise<void> {
    await this.closeMirror(false);
  }

  private httpWith(session: SessionPort): HttpClient {
    return createHttpClient({
      baseUrl: this.baseUrl,
      transport: this.deps.transport,
      clock: this.deps.clock,
      session,
      platform: this.platform,
      timeoutMs: requestTimeoutMs(this.platform),
    });
  }

  /**
   * A direct call answered 401: the session is gone (expired or revoked) exactly as when the
   * sync engine hears it, so the UI asks the same user to sign in again.
   */
  private watch401<R extends HttpResult<unknown>>(res: R): R {
    // AUTH_7001 is a wrong re-entered password (step-up), not a lost session.
    if (!res.ok && res.kind === 'http' && res.status === 401 && res.error.error_code !== 'AUTH_7001') void this.expireSession();
    return res;
  }

  /** A client bound to a token not (yet) stored: a sign-in in progress. */
  private boundTo(token: string): HttpClient {
    return this.httpWith({ getToken: () => token, onUnauthorized: () => undefined });
  }

  private async refreshFlagsNow(): Promise<void> {
    const rt = this.runtime;
    if (!rt || !this.http || !this.hub.online) return;
    await refreshFlags(this.http, rt).catch(() => undefined);
  }

  private requireHttp(): HttpClient {
    if (!this.http) throw new Error('init() must be called first');
    return this.http;
  }

  private async openMirror(stored: StoredSession): Promise<void> {
    const runtime = await MirrorRuntime.open({
      name: stored.db_name,
      storage: this.deps.storage,
      multiInstance: this.deps.multiInstance,
      defer: this.deps.defer,
      now: () => this.deps.clock.now(),
      onDataChanged: (collections) => this.hub.dataChanged(collections),
      onOutboxChanged: () => {
        this.hub.setCounts(runtime.outboxIndex.counts());
        this.engine?.kick();
      },
      onError: (e) => this.hub.setError(e instanceof Error ? e.message : String(e)),
    });
    this.runtime = runtime;
    this.hub.attach(runtime);
    if (stored.expired) this.hub.setPhase('signed_out');
    if (this.deps.sync === false) return;
    this.withdraw = this.deps.elector.elect(`ledgerline-sync-${stored.db_name}`, (signal) => this.lead(runtime, signal));
  }

  /** This tab won the lock: run the sync engine until leadership ends or the mirror closes. */
  private lead(runtime: MirrorRuntime, signal: AbortSignal): void {
    if (this.runtime !== runtime || signal.aborted) return;
    const engine = createSyncEngine({
      baseUrl: this.baseUrl,
      transport: this.deps.transport,
      clock: this.deps.clock,
      session: this.sessionPort,
      mirror: runtime.mirror,
      outboxStore: runtime.outboxStore,
      optimistic: runtime.mirror,
      onStatus: (s) => this.hub.setEngineStatus(s),
      leader: true,
      platform: this.platform,
      timeoutMs: requestTimeoutMs(this.platform),
    });
    this.engine = engine;
    this.hub.setLeader(true);
    engine.setOnline(this.hub.online);
    if (!this.stored?.expired) engine.start();
    signal.addEventListener('abort', () => {
      if (this.engine === engine) this.engine = null;
      this.hub.setLeader(false);
      void engine.stop();
    }, { once: true });
  }

  private async closeMirror(removeIfClean: boolean): Promise<void> {
    const runtime = this.runtime;
    const engine = this.engine;
    this.runtime = null;
    this.engine = null;
    this.withdraw?.();
    this.withdraw = null;
    await engine?.stop();
    this.hub.detach();
    if (!runtime) return;
    if (removeIfClean && runtime.outboxIndex.entries().length === 0) await runtime.remove();
    else await runtime.close();
  }

  private async expireSession(): Promise<void> {
    if (!this.stored || this.stored.expired) return;
    this.stored = { ...this.stored, expired: true };
    this.hub.setPhase('signed_out');
    this.hub.setError(errorBody('AUTH_7003').error_v2.message);
    await this.deps.sessionStore.set(this.stored);
  }

  /** Online again or just started: refresh the cached identity (role, business) for offline starts. */
  private async refreshIdentity(): Promise<void> {
    const stored = this.stored;
    if (!stored || stored.expired || !this.hub.online || !this.http) return;
    const who = await this.http.call(currentIdentity);
    if (!who.ok || this.stored !== stored) return;
    if (who.data.user.id !== stored.session.user.id || who.data.business.id !== stored.session.business.id) return;
    const businesses = businessChoices(who.data.identity.spend_users, who.data.businesses);
    this.stored = { ...stored, session: { ...stored.session, user: who.data.user, business: who.data.business, businesses } };
    await this.deps.sessionStore.set(this.stored);
    await this.refreshFlagsNow();
  }
}
