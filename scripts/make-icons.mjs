// Renders Ledgerline's app icons as real PNGs with no image library: a shape function is
// sampled 4×4 per pixel (anti-aliasing) and the pixels are encoded with zlib. Run with
// `node scripts/make-icons.mjs`; the outputs in public/icons are committed, so builds need no step.
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const BRAND = [29, 78, 216]; // #1d4ed8
const INK = [255, 255, 255];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inside a rounded rectangle centred at (cx, cy) with half sizes (hw, hh) and radius r. */
function inRoundRect(x, y, cx, cy, hw, hh, r) {
  const dx = Math.max(Math.abs(x - cx) - (hw - r), 0);
  const dy = Math.max(Math.abs(y - cy) - (hh - r), 0);
  return dx * dx + dy * dy <= r * r;
}

/**
 * The glyph in unit coordinates (0..1): three ledger lines of falling length and a tick,
 * read as "a ledger, reconciled". `inset` shrinks it into the maskable safe zone.
 */
function glyph(x, y, inset) {
  const u = (x - inset) / (1 - 2 * inset);
  const v = (y - inset) / (1 - 2 * inset);
  const bars = [
    [0.5, 0.3, 0.3],
    [0.44, 0.48, 0.24],
    [0.38, 0.66, 0.18],
  ];
  for (const [cx, cy, hw] of bars) if (inRoundRect(u, v, cx - 0.08, cy, hw, 0.055, 0.055)) return true;
  // The tick: two thick segments.
  const seg = (ax, ay, bx, by, w) => {
    const px = u - ax, py = v - ay, qx = bx - ax, qy = by - ay;
    const t = Math.max(0, Math.min(1, (px * qx + py * qy) / (qx * qx + qy * qy)));
    const ex = px - t * qx, ey = py - t * qy;
    return ex * ex + ey * ey <= w * w;
  };
  return seg(0.6, 0.66, 0.68, 0.74, 0.05) || seg(0.68, 0.74, 0.84, 0.55, 0.05);
}

function render(size, { maskable }) {
  const out = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0, ink = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (px + (sx + 0.5) / S) / size;
          const y = (py + (sy + 0.5) / S) / size;
          // Maskable icons must fill the square; the platform applies its own mask.
          const inBg = maskable || inRoundRect(x, y, 0.5, 0.5, 0.5, 0.5, 0.22);
          if (!inBg) continue;
          bg++;
          if (glyph(x, y, maskable ? 0.14 : 0.04)) ink++;
        }
      }
      const n = S * S;
      const i = (py * size + px) * 4;
      const a = bg / n;
      const k = bg ? ink / bg : 0;
      for (let c = 0; c < 3; c++) out[i + c] = Math.round(BRAND[c] * (1 - k) + INK[c] * k);
      out[i + 3] = Math.round(a * 255);
    }
  }
  return encodePng(size, out);
}

const dir = new URL('../public/icons/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('icon-192.png', dir), render(192, { maskable: false }));
writeFileSync(new URL('icon-512.png', dir), render(512, { maskable: false }));
writeFileSync(new URL('maskable-512.png', dir), render(512, { maskable: true }));
writeFileSync(new URL('apple-touch-icon.png', dir), render(180, { maskable: true }));
console.log('icons written to public/icons');
