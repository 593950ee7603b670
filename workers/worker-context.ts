import { currentIdentity } from '../schema/api/calls.ts';
import { errorBody } from '../schema/errors.ts';
import { requestTimeoutMs, type Platform } from '../schema/platform.ts';
import {
  createHttpClient, StepUpTokens, type HttpClient, type HttpResult, type SessionPort,
} from '../sync/index.ts';
import type { BusinessSessionInfo } from './contracts/session.ts';
import { businessChoices } from './business-choices.ts';
import { refreshFlags } from './identity.ts';
import { reportingTransport } from '../sync/reachability.ts';
import { MirrorHost } from './mirror-host.ts';
import { isStoredBusiness, type StoredSession } from './session-store.ts';
import { StatusHub } from './status-hub.ts';
import type { DataServiceDeps, PendingMfa } from './worker-deps.ts';

export type { DataServiceDeps, PendingMfa } from './worker-deps.ts';

/**
 * The state the worker's domains share (handlers/*.ts): the stored session and the HTTP client
 * bound to it, the status hub, step-up tokens, and the mirror host (the open mirror and, when
 * this tab leads, its sync engine). Each domain reads and changes it only through here.
 */
export class WorkerContext {
  baseUrl = '';
  platform: Platform = 'web';
  http: HttpClient | null = null;
  stored: StoredSession | null = null;
  pendingMfa: PendingMfa | null = null;
  /** This browser profile's device id (issue 24, X-Ledgerline-Device): loaded by `init`. */
  deviceId: string | null = null;
  readonly hub: StatusHub;
  readonly stepUps: StepUpTokens;
  readonly host: MirrorHost;
  readonly sessionPort: SessionPort = {
    getToken: () => (this.stored && !this.stored.expired ? this.stored.token : null),
    // The stepped-up token rides only on calls that need its scope, and only while it lives.
    tokenFor: (auth) => this.stepUps.tokenFor(auth, this.sessionPort.getToken()),
    onUnauthorized: () => void this.expireSession(),
  };

  readonly deps: DataServiceDeps;

  constructor(deps: DataServiceDeps) {
    this.hub = new StatusHub(deps.clock, deps.online ?? true);
    // Every request is evidence of whether the server answers (sync/reachability.ts).
    this.deps = { ...deps, transport: reportingTransport(deps.transport, (reach) => this.hub.setReachable(reach)) };
    this.stepUps = new StepUpTokens(deps.clock);
    this.host = new MirrorHost(this);
  }

  requireHttp(): HttpClient {
    if (!this.http) throw new Error('init() must be called first');
    return this.http;
  }

  httpWith(session: SessionPort): HttpClient {
    return createHttpClient({
      baseUrl: this.baseUrl,
      transport: this.deps.transport,
      clock: this.deps.clock,
      session,
      platform: this.platform,
      timeoutMs: requestTimeoutMs(this.platform),
      device: () => this.deviceId,
    });
  }

  /** A client bound to a token not (yet) stored: a sign-in in progress. */
  boundTo(token: string): HttpClient {
    return this.httpWith({ getToken: () => token, onUnauthorized: () => undefined });
  }

  /**
   * A direct call answered 401: the session is gone (expired or revoked) exactly as when the
   * sync engine hears it, so the UI asks the same user to sign in again.
   */
  watch401<R extends HttpResult<unknown>>(res: R): R {
    // AUTH_7001 is a wrong re-entered password (step-up), not a lost session.
    if (!res.ok && res.kind === 'http' && res.status === 401 && res.error.error_code !== 'AUTH_7001') void this.expireSession();
    return res;
  }

  async expireSession(): Promise<void> {
    if (!this.stored || this.stored.expired) return;
    this.stored = { ...this.stored, expired: true };
    this.hub.setPhase('signed_out');
    this.hub.setError(errorBody('AUTH_7003').error_v2.message);
    await this.deps.sessionStore.set(this.stored);
  }

  async refreshFlagsNow(): Promise<void> {
    const rt = this.host.runtime;
    if (!rt || !this.http || !this.hub.online) return;
    await refreshFlags(this.http, rt).catch(() => undefined);
  }

  /** The main app's signed-in spend user (null signed out or on another surface, issue 31). */
  businessUserId(): string | null {
    return isStoredBusiness(this.stored) ? this.stored.session.user.id : null;
  }

  /**
   * Online again or just started: refresh the cached identity (role, business) for offline
   * starts. A session on another surface has neither (its scope list is refreshed by the picker).
   */
  async refreshIdentity(): Promise<void> {
    const stored = this.stored;
    if (!isStoredBusiness(stored) || stored.expired || !this.hub.online || !this.http) return;
    const who = await this.http.call(currentIdentity);
    if (!who.ok || this.stored !== stored) return;
    const { user, business } = who.data;
    if (!user || !business || user.id !== stored.session.user.id || business.id !== stored.session.business.id) return;
    const businesses = businessChoices(who.data.identity.spend_users, who.data.businesses);
    const session: BusinessSessionInfo = { ...stored.session, user, business, businesses };
    this.stored = { ...stored, session };
    await this.deps.sessionStore.set(this.stored);
    await this.refreshFlagsNow();
  }
}
