import { uploadReceipt, type ReceiptContentType } from '../schema/api/calls-receipts.ts';
import { errorBody, type ErrorV2 } from '../schema/errors.ts';
import { checkFileContent } from '../schema/file-content.ts';

/**
 * What the receipt store does to a file before keeping it (issue 9 §2): the upload call's own
 * limits checked first (nothing is stored for a file the server would refuse), its SHA-256
 * (the server's content address), and a thumbnail.
 */

const SPEC = uploadReceipt.upload!;
/** The longest side of a thumbnail, in px. */
const THUMBNAIL_MAX_PX = 320;

export type FileCheck = { ok: true; contentType: ReceiptContentType } | { ok: false; error: ErrorV2['error_v2'] };

/**
 * A file's declared type (parameters ignored) and size against the upload call's `upload` spec;
 * given its bytes, also their content as the server judges it (`checkFileContent`, shared:
 * markup → UPLOAD_7105, a signature not of the declared type → UPLOAD_7102), so a file the
 * server would refuse is never kept nor queued.
 */
export function checkReceiptFile(name: string, type: string, size: number, bytes?: Uint8Array): FileCheck {
  const contentType = type.split(';')[0]!.trim().toLowerCase();
  const what = name ? `${name}: ` : '';
  if (!SPEC.contentTypes.includes(contentType)) {
    return { ok: false, error: errorBody('UPLOAD_7101', `${what}this file type is not supported. Use a photo (JPEG, PNG, HEIC, WebP) or a PDF.`).error_v2 };
  }
  if (size === 0) return { ok: false, error: errorBody('UPLOAD_7104', `${what}the file is empty.`).error_v2 };
  if (size > SPEC.maxBytes) {
    const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
    return { ok: false, error: errorBody('UPLOAD_7103', `${what}the file is too large (${mb(size)}; at most ${mb(SPEC.maxBytes)}).`).error_v2 };
  }
  if (bytes) {
    const content = checkFileContent(contentType, bytes);
    if (!content.ok) return { ok: false, error: errorBody(content.code, `${what}${lowerFirst(content.message)}`).error_v2 };
  }
  return { ok: true, contentType: contentType as ReceiptContentType };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Lower-case hex SHA-256 of the bytes (what the server dedupes on). */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The thumbnail's size: the longest side at most `max`, never enlarged. */
export function thumbnailSize(width: number, height: number, max = THUMBNAIL_MAX_PX): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A ≤ 320 px WebP (JPEG where WebP cannot be encoded) of an image, drawn in the worker with
 * `createImageBitmap` + `OffscreenCanvas`; null for PDFs (no first-page render: the UI shows a
 * document icon), for images the browser cannot decode (HEIC in Chromium) and where those APIs
 * are missing (Node tests).
 */
export async function makeThumbnail(blob: Blob, contentType: ReceiptContentType): Promise<Blob | null> {
  if (contentType === 'application/pdf') return null;
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch {
    return null;
  }
  try {
    const { width, height } = thumbnailSize(bitmap.width, bitmap.height);
    const canvas = new OffscreenCanvas(width, height);
    const g = canvas.getContext('2d');
    if (!g) return null;
    g.drawImage(bitmap, 0, 0, width, height);
    const webp = await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
    return webp.type === 'image/webp' ? webp : await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
  } catch {
    return null;
  } finally {
    bitmap.close();
  }
}
