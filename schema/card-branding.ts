import { z } from 'zod';
import { checkFileContent } from './file-content.ts';

/**
 * Issue 32, card branding (§7 Businesses `/card-branding`): a logo and a colour on the business's
 * virtual cards. The logo is PNG or JPEG only (checked by its signature, never by the declared
 * type alone), within a size cap and pixel bounds; SVG is refused (script and external references
 * in an image the whole business renders). Shared by server (which enforces) and client (which
 * renders the card and picks legible text on the colour).
 */
export const CARD_LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export const CARD_LOGO_MAX_BYTES = 256 * 1024;
/** Pixel bounds of the logo, each side. */
export const CARD_LOGO_MIN_PX = 32;
export const CARD_LOGO_MAX_PX = 2048;
/** The default card colour (the design's ink) when the business has none. */
export const DEFAULT_CARD_COLOR = '#1f2937';

export const cardColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex colour like #1a2b3c').transform((c) => c.toLowerCase());
export const cardBrandingInputSchema = z.object({ color: cardColorSchema.nullable() });
export const cardBrandingSchema = z.object({
  color: z.string().nullable(),
  logo: z.object({ content_type: z.enum(CARD_LOGO_CONTENT_TYPES), width: z.number().int(), height: z.number().int(), sha256: z.string() }).nullable(),
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type CardBranding = z.infer<typeof cardBrandingSchema>;

const u16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;

/** A PNG's size from its IHDR chunk (the first chunk, at byte 8), or null. */
function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 24 || String.fromCharCode(...b.subarray(12, 16)) !== 'IHDR') return null;
  return { width: u32(b, 16), height: u32(b, 20) };
}

/** SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames. */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** A JPEG's size from its first start-of-frame segment, walking the segments from SOI, or null. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) { i += 1; continue; }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { i += 2; continue; }
    if (marker === 0xd9 || marker === 0xda) return null;
    const len = u16(b, i + 2);
    if (len < 2) return null;
    if (isSof(marker)) return i + 9 <= b.length ? { width: u16(b, i + 7), height: u16(b, i + 5) } : null;
    i += 2 + len;
  }
  return null;
}

/** The image's pixel size read from its header (PNG or JPEG), or null when unreadable. */
export function imageSize(contentType: string, bytes: Uint8Array): { width: number; height: number } | null {
  if (contentType === 'image/png') return pngSize(bytes);
  if (contentType === 'image/jpeg') return jpegSize(bytes);
  return null;
}

export type LogoCheck =
  | { ok: true; contentType: (typeof CARD_LOGO_CONTENT_TYPES)[number]; width: number; height: number }
  | { ok: false; code: 'UPLOAD_7102' | 'UPLOAD_7105' | 'REQUEST_7001'; message: string };

/** The verdict on a logo sent as `declared`: its signature, then its pixel bounds. */
export function checkCardLogo(declared: string, bytes: Uint8Array): LogoCheck {
  const content = checkFileContent(declared, bytes);
  if (!content.ok) return content;
  if (content.contentType !== 'image/png' && content.contentType !== 'image/jpeg') {
    return { ok: false, code: 'UPLOAD_7102', message: 'A card logo must be a PNG or JPEG image.' };
  }
  const size = imageSize(content.contentType, bytes);
  if (!size) return { ok: false, code: 'UPLOAD_7102', message: 'The image header cannot be read. Export the logo again as PNG or JPEG.' };
  const { width, height } = size;
  if (Math.min(width, height) < CARD_LOGO_MIN_PX || Math.max(width, height) > CARD_LOGO_MAX_PX) {
    return {
      ok: false, code: 'REQUEST_7001',
      message: `The logo is ${width}×${height} pixels; each side must be between ${CARD_LOGO_MIN_PX} and ${CARD_LOGO_MAX_PX}.`,
    };
  }
  return { ok: true, contentType: content.contentType, width, height };
}

/** Text colour legible on `background` (#rrggbb): dark text on light colours, white on dark (WCAG relative luminance). */
export function cardTextColor(background: string): '#ffffff' | '#111827' {
  const channel = (hex: string) => {
    const c = parseInt(hex, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background);
  if (!m) return '#ffffff';
  const l = 0.2126 * channel(m[1]!) + 0.7152 * channel(m[2]!) + 0.0722 * channel(m[3]!);
  // Contrast with white (1.05 / (l + 0.05)) against contrast with #111827 (≈ (l + 0.05) / 0.0601).
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.0601 ? '#ffffff' : '#111827';
}
