import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../../schema/errors.ts';

/** A refusal with a catalogue code; the one way handlers answer with an error. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status;
  }

  get body() {
    return errorBody(this.code, this.message, this.errors);
  }
}

/**
 * A refused move of a status machine (claims, cards, card requests): 422 REQUEST_7001 with the
 * rule's message, which names the current status. Every machine's check has this shape.
 */
export function refuse(check: { ok: true } | { ok: false; message: string }): void {
  if (!check.ok) throw new ApiError('REQUEST_7001', check.message);
}

/** 422 with §5 field messages; the first one doubles as the headline a toast shows. */
export function validationError(errors: Record<string, string>): ApiError {
  const first = Object.values(errors)[0];
  return new ApiError('REQUEST_7001', first ?? ERROR_CATALOGUE.REQUEST_7001.message, errors);
}

/**
 * PostgreSQL errors caused by the data a caller sent (bad text encoding, out-of-range numbers,
 * a reference that vanished) are the caller's problem, not ours: class 22 is "data exception",
 * 23 "integrity constraint violation". They answer 422 instead of 500.
 */
export function fromDatabaseError(err: unknown): ApiError | null {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : null;
  if (typeof code !== 'string') return null;
  if (code.startsWith('22')) return new ApiError('REQUEST_7001', 'The request contains a value the server cannot process.');
  if (code.startsWith('23')) return new ApiError('REQUEST_7001', 'The request conflicts with the current data.');
  return null;
}
