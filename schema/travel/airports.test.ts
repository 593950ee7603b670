import { describe, expect, it } from 'vitest';
import { AIRPORTS, airport, distanceKm, searchAirports } from './airports.ts';

describe('airports', () => {
  it('holds at least 200 airports, each complete and in a real zone', () => {
    const codes = Object.keys(AIRPORTS);
    expect(codes.length).toBeGreaterThanOrEqual(200);
    for (const code of codes) {
      const a = AIRPORTS[code]!;
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect(a.country).toMatch(/^[A-Z]{2}$/);
      expect(Math.abs(a.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(a.lon)).toBeLessThanOrEqual(180);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: a.tz })).not.toThrow();
    }
  });
  it('looks up by code in any case', () => {
    expect(airport('sfo')?.city).toBe('San Francisco');
    expect(airport('QQQ')).toBeNull();
  });
  it('measures great-circle distance', () => {
    expect(Math.round(distanceKm(AIRPORTS.JFK!, AIRPORTS.LHR!))).toBeGreaterThan(5500);
    expect(Math.round(distanceKm(AIRPORTS.JFK!, AIRPORTS.LHR!))).toBeLessThan(5600);
  });
  it('autocompletes by code, city or name prefix, accents ignored', () => {
    expect(searchAirports('LHR')[0]!.code).toBe('LHR');
    expect(searchAirports('lon').map((a) => a.code)).toEqual(['LCY', 'LGW', 'LHR', 'STN']);
    expect(searchAirports('sao').map((a) => a.code)).toEqual(['CGH', 'GRU']);
    expect(searchAirports('heathrow').map((a) => a.code)).toEqual(['LHR']);
    expect(searchAirports('kennedy').map((a) => a.code)).toEqual(['JFK']);
    expect(searchAirports('  ')).toEqual([]);
    expect(searchAirports('a', 3)).toHaveLength(3);
  });
});
