import { describe, expect, it } from 'vitest';
import { landingPath, rememberLanding } from './landing-page.ts';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('start page', () => {
  it('opens the remembered start page, and the usual home for anything else', () => {
    const s = memory();
    expect(landingPath(s)).toBe('/transactions');
    rememberLanding(s, '/approvals');
    expect(landingPath(s)).toBe('/approvals');
    rememberLanding(s, '//evil.example');
    expect(landingPath(s)).toBe('/approvals');
    s.setItem('ledgerline.landing-page', '/nowhere');
    expect(landingPath(s)).toBe('/transactions');
    expect(landingPath(null)).toBe('/transactions');
  });
});
