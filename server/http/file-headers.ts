/**
 * The headers of every answer that is a stored or generated file (receipt files, which are also
 * bills' and provisional bills' invoice files; accounting sync files; CSV exports), issue 24
 * item 8. A file is never rendered on the app's origin: it is a download (`attachment`, with a
 * name made safe here), it may not run anything even if opened (`sandbox`: an opaque origin, no
 * script, no forms, and nothing else loads: `default-src 'none'`), and its declared type is
 * final (`nosniff`). The app shows files from blobs it fetched (workers/handlers/receipts.ts).
 * `securityHeaders` (headers.ts) leaves a handler's own security headers in place.
 */
const FILE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'";

/** ASCII letters, digits, `.`, `_` and `-` only (anything else becomes `_`), never empty or dot-led. */
function safeFileName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120);
  return cleaned || 'file';
}

export function fileHeaders(contentType: string, name: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${safeFileName(name)}"`,
    'content-security-policy': FILE_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
  };
}

/** The download name of a receipt-store file: `receipt-<id>.<ext>` of its (sniffed) type. */
export function receiptFileName(id: string, contentType: string): string {
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/heic': 'heic', 'image/webp': 'webp', 'application/pdf': 'pdf' }[contentType] ?? 'bin';
  return `receipt-${id}.${ext}`;
}
