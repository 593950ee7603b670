/** §9 business constants and limits, in one place. */
export const DEFAULT_PAGE_SIZE = 50;
export const REQUEST_TIMEOUT_DEFAULT_MS = 10_000;
export const REQUEST_TIMEOUT_WEB_MS: number | null = null;
export const REQUEST_TIMEOUT_MOBILE_MS = 15_000;
export const MOBILE_FLAG_MEMORY_MS = 5 * 60_000;
export const TOKEN_WAIT_MOBILE_MS = 1_000;
export const TOKEN_WAIT_WEB_MS = 10_000;
export const BULK_BILL_CREATION_LIMIT = 50;
export const ANALYTICS_CLEAR_DELAY_MS = 2_500;

/** Ours: the largest bulk coding call, and the change-feed batch limits. */
export const BULK_CODE_MAX = 10_000;
export const SYNC_BATCH_DEFAULT = 2_000;
export const SYNC_BATCH_MAX = 10_000;

/** §7 retry rule. */
export const RETRY_STATUSES = [408, 413, 429, 500, 502, 503, 504] as const;
export const RETRY_METHODS = ['GET', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'] as const;
export const STANDARD_MAX_RETRIES = 2;
export const PAGED_MAX_RETRIES = 5;
export const RETRY_BASE_DELAY_MS = 300;

/**
 * Ours: below this a compressed answer saves less than one packet, so the build does not
 * precompress a file and the server does not compress an answer (build/precompress.ts,
 * server/http/encoding.ts).
 */
export const COMPRESS_MIN_BYTES = 1024;
