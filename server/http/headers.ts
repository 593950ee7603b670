import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The browser security headers every answer carries (API, app files, the SPA fallback, 404s,
 * errors, SSE). The app is one origin serving both the PWA and its API, so 'self' is the whole
 * allow-list; anything wider must be added here on purpose, with its reason.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  // No inline script anywhere: the built index.html loads only /assets/*.js (checked in the
  // e2e scenario). Receipt OCR (tesseract.js) compiles its wasm core in its worker, which needs
  // 'wasm-unsafe-eval': it allows WebAssembly compilation only, never eval() or new Function.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  // The data worker (dedicated, module), tesseract's OCR worker (classic, started from its URL,
  // never a blob:) and the vite-plugin-pwa service worker are same-origin files.
  workerSrc: ["'self'"],
  // Vite extracts CSS to files; React sets style props through the CSSOM, which CSP allows. A
  // charting library that injects <style> elements would need a nonce or hash here, not 'unsafe-inline'.
  styleSrc: ["'self'"],
  // Receipt thumbnails are shown from blob: URLs of locally held files; small icons may be data: URLs.
  imgSrc: ["'self'", 'blob:', 'data:'],
  fontSrc: ["'self'"],
  // The API is same-origin (fetch and the SSE stream); the app talks to no other host.
  connectSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** Camera for receipt capture on our own pages; every other powerful feature is off. */
const PERMISSIONS_POLICY = {
  camera: ['self'],
  microphone: [],
  geolocation: [],
  payment: [],
  usb: [],
  serial: [],
  hid: [],
  midi: [],
  accelerometer: [],
  gyroscope: [],
  magnetometer: [],
  displayCapture: [],
};

export type SecurityHeaderOptions = {
  /**
   * Strict-Transport-Security (and upgrade-insecure-requests): only behind TLS, or a browser
   * would refuse the plain-HTTP origin we serve on 127.0.0.1 for a year. Default: LEDGERLINE_HSTS=1.
   */
  hsts?: boolean;
};

export function securityHeaders(opts: SecurityHeaderOptions = {}): MiddlewareHandler {
  const hsts = opts.hsts ?? process.env.LEDGERLINE_HSTS === '1';
  return secureHeaders({
    contentSecurityPolicy: hsts ? { ...CONTENT_SECURITY_POLICY, upgradeInsecureRequests: [] } : CONTENT_SECURITY_POLICY,
    permissionsPolicy: PERMISSIONS_POLICY,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    strictTransportSecurity: hsts ? 'max-age=31536000; includeSubDomains' : false,
    // Nothing we serve is meant to be embedded by another origin, and no popup needs our window.
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    // A handler's own value stands: file answers set a sandboxing policy (file-headers.ts).
    overwrite: false,
  });
}

/**
 * The same headers as plain pairs, for the few answers written below Hono (Node's clientError
 * and oversized-header refusals in serve.ts), which never pass through the middleware.
 */
export function staticSecurityHeaders(opts: SecurityHeaderOptions = {}): Record<string, string> {
  const hsts = opts.hsts ?? process.env.LEDGERLINE_HSTS === '1';
  const out: Record<string, string> = {
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
  };
  if (hsts) out['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return out;
}
