/** The sync engine's public API (the worker imports from here). */
export type {
  Clock, Transport, SessionPort, MirrorStore, OutboxStore, OutboxEntry, OutboxState, OptimisticPort, SyncPhase, SyncStatus, PullCheckpoint,
  LocalFilesPort, UploadState,
} from './ports.ts';
export { systemClock } from './ports.ts';
export { createSyncEngine, type SyncEngine, type SyncEngineOptions } from './engine.ts';
export {
  createHttpClient, defaultTimeout, parseErrorBody, PLATFORM_HEADER,
  type ApiError, type CallOptions, type HttpClient, type HttpClientOptions, type HttpFailure, type HttpResult, type Platform,
} from './http.ts';
export { callWithRetry, retryDecision, parseRetryAfter, backoffDelay, MAX_RETRY_AFTER_MS, type RetryDecision } from './retry.ts';
export {
  createOutbox, createOutboxEntry, transition, classifyOutcome, nextEligible, countEntries, idempotencyKeyOf,
  InvalidTransitionError, type Outbox, type OutboxOptions, type OutboxEvent, type OutboxCounts,
} from './outbox.ts';
export { createPuller, MIN_BATCH, startsWalk, type Puller, type PullerEvent, type PullResult, type LiveEnd } from './puller.ts';
export { askFirstPage, type EarlyFirstPage } from './first-page.ts';
export { reduceEngine, initialEngineState, type EngineEvent, type EngineState } from './phase.ts';
export { createSseParser, readSse, type SseEvent, type SseItem } from './sse.ts';
export { decodeTokenClaims, tokenScopes, type ClientClaims } from './token.ts';
export {
  isFullyScoped, waitForFullToken, needsStepUpToken, StepUpTokens, TOKEN_WAIT_FAILURE, BUSINESS_ID_KEY,
  switcherUsers, showsBusinessSwitcher,
} from './auth.ts';
export {
  createTelemetry, ANALYTICS_ID_KEYS,
  type Telemetry, type TelemetryEvent, type TelemetryIds, type TelemetryOptions, type ErrorReport, type KeyValueStorage,
} from './telemetry.ts';
