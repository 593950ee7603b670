/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { systemClock } from '../sync/index.ts';
import type { DataApi } from './api.ts';
import { DataService } from './data-service.ts';
import { webLocksElector } from './leader.ts';
import { SessionStore } from './session-store.ts';

/**
 * The dedicated data worker's entry (one per tab). RxDB, the query engine and, in the leader
 * tab, the sync engine all live here, off the UI thread. The UI creates it through
 * workers/client.ts and talks to it only through DataApi.
 */
const service = new DataService({
  sessionStore: new SessionStore(),
  transport: (input, init) => fetch(input, init),
  clock: systemClock,
  elector: webLocksElector(),
});

/**
 * Comlink can send functions only as proxies: callbacks arrive proxied (client.ts wraps them)
 * and the unsubscribe function goes back proxied.
 */
const api: DataApi = {
  init: (opts) => service.init(opts),
  signIn: (email, password, businessId) => service.signIn(email, password, businessId),
  signOut: () => service.signOut(),
  session: () => service.session(),
  switchBusiness: (businessId) => service.switchBusiness(businessId),
  signUp: (input) => service.signUp(input),
  verifyMfa: (code) => service.verifyMfa(code),
  reauthenticate: (password) => service.reauthenticate(password),
  webConfig: () => service.webConfig(),
  stepUp: (input) => service.stepUp(input),
  changePassword: (newPassword) => service.changePassword(newPassword),
  startTotp: () => service.startTotp(),
  verifyTotp: (id, code, emailCode) => service.verifyTotp(id, code, emailCode),
  pendingMfaStatus: () => service.pendingMfaStatus(),
  sendEmailCode: () => service.sendEmailCode(),
  signOutAllSessions: () => service.signOutAllSessions(),
  flags: () => service.flags(),
  sendTelemetry: (events) => service.sendTelemetry(events),
  sendErrorReport: (report) => service.sendErrorReport(report),
  query: (collection, q) => service.query(collection, q),
  get: (collection, id) => service.get(collection, id),
  queryTransactions: (q) => service.queryTransactions(q),
  matchingIds: (filter) => service.matchingIds(filter),
  getTransaction: (id) => service.getTransaction(id),
  referenceData: () => service.referenceData(),
  codeTransactions: (ids, patch) => service.codeTransactions(ids, patch),
  outbox: () => service.outbox(),
  retryCommand: (id) => service.retryCommand(id),
  discardCommand: (id) => service.discardCommand(id),
  status: () => service.status(),
  subscribe: async (onStatus, onDataChanged) => Comlink.proxy(await service.subscribe(onStatus, onDataChanged)),
  setOnline: (online) => service.setOnline(online),
};

Comlink.expose(api);
