import { messageForError } from '../../schema/errors.ts';

/** §8: what the user reads for a failure: the server's message, the catalogue's, or 'There was an error.' */
export const errorText = (e: { error_code?: string; message?: string } | null | undefined): string =>
  messageForError(e?.error_code, e?.message || undefined);
