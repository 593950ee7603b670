import type { Context } from 'hono';
import type { DocumentFile } from '../domain/vendor-network/documents.ts';
import { fileHeaders } from '../http/file-headers.ts';

const EXT: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' };

/** A vendor document as a file: attachment, sandbox CSP, nosniff, never cached by a shared cache. */
export function documentAnswer(c: Context, file: DocumentFile): Response {
  return c.body(new Uint8Array(file.bytes), 200, {
    ...fileHeaders(file.content_type, `vendor-document-${file.id}.${EXT[file.content_type] ?? 'bin'}`),
    'cache-control': 'private, no-store',
    'content-length': String(file.size),
  });
}
