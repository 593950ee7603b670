import type { Queryable } from '../db/db.ts';

/**
 * Issue 32, event history: a device id (X-Ledgerline-Device) reads as the device's name, so the
 * history says "from Chrome on Windows" for a change made elsewhere. The name is read from the
 * browser's User-Agent when a signed-in write names the device, and kept per business (migration
 * 080). A process remembers what it recorded, so a device's later writes cost no statement.
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bMobile\/\w+ Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on macOS", "Safari on iPhone", "Firefox", "A device on Linux"; "Unknown device" when the agent says nothing we know. */
export function deviceName(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? null;
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null;
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A device on ${system}`;
  return 'Unknown device';
}

/** What this process recorded: business:device → name. Bounded: cleared when full (a miss only costs one upsert). */
const recorded = new Map<string, string>();
const MAX_REMEMBERED = 10_000;

/**
 * Forgets what this process recorded. For tests only: files that share one module graph
 * (vitest.config.ts, the server project) each start on a fresh database, where a device the
 * graph remembers from another file's database (the demo seed's business id is the same in every
 * copy) has no row yet.
 */
export function forgetRecordedDevices(): void {
  recorded.clear();
}

/**
 * Records the device a signed-in write names, with its name read from `userAgent`. Outside the
 * write's transaction (a device row is not part of the change, and two writes of one device must
 * not wait on each other); one statement the first time this process sees the device or a new name.
 */
export async function rememberDevice(db: Queryable, businessId: string, deviceId: string | null, userAgent: string | null | undefined): Promise<void> {
  if (!deviceId) return;
  const name = deviceName(userAgent);
  const key = `${businessId}:${deviceId}`;
  if (recorded.get(key) === name) return;
  await db.query(
    `INSERT INTO devices (business_id, id, name, first_seen_at, last_seen_at) VALUES ($1, $2, $3, now(), now())
     ON CONFLICT (business_id, id) DO UPDATE SET name = excluded.name, last_seen_at = excluded.last_seen_at
     WHERE devices.name IS DISTINCT FROM excluded.name`,
    [businessId, deviceId, name],
  );
  if (recorded.size >= MAX_REMEMBERED) recorded.clear();
  recorded.set(key, name);
}

