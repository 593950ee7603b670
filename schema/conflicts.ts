/**
 * Versions on the wire (issue 24, "no silent overwrite"), shared by the server and the app.
 * A single-row GET of a mirrored row answers `ETag: "<change_seq>"`; a PATCH of it may send
 * `If-Match` with that version, and the server refuses (409 CONFLICT, schema/errors.ts
 * `fieldConflictSchema`) a field someone else changed since. `X-Ledgerline-Device` names the
 * device a write comes from: changes the same device made since the base are never conflicts.
 */
export const ETAG_HEADER = 'ETag';
export const IF_MATCH_HEADER = 'If-Match';
export const DEVICE_HEADER = 'X-Ledgerline-Device';

/** The ETag of a row at `seq`: a strong, quoted decimal. */
export const formatEtag = (seq: number): string => `"${seq}"`;

/**
 * The base version an If-Match names: `"12"`, `W/"12"` or a bare `12`. Anything else (a list,
 * `*`, text, a number past 2^53) is null: the caller answers 422 naming the header.
 */
export function parseIfMatch(value: string): number | null {
  const m = /^\s*(?:W\/)?(?:"(\d{1,16})"|(\d{1,16}))\s*$/.exec(value);
  const digits = m?.[1] ?? m?.[2];
  if (digits === undefined) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** A device id as the header carries it (a uuid). */
export const DEVICE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
