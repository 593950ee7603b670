/**
 * Issue 27: IATA airports and their cities, by code. A minimal list (the trips half's own, to
 * validate a trip's destination); the booking half replaces it with the full inventory's 200+
 * under the same export.
 */
export type Airport = { city: string; name: string; country: string; tz: string; lat: number; lon: number };

export const AIRPORTS: Readonly<Record<string, Airport>> = {
  SFO: { city: 'San Francisco', name: 'San Francisco International', country: 'US', tz: 'America/Los_Angeles', lat: 37.619, lon: -122.375 },
  JFK: { city: 'New York', name: 'John F. Kennedy International', country: 'US', tz: 'America/New_York', lat: 40.641, lon: -73.778 },
  LAX: { city: 'Los Angeles', name: 'Los Angeles International', country: 'US', tz: 'America/Los_Angeles', lat: 33.942, lon: -118.408 },
  ORD: { city: 'Chicago', name: "O'Hare International", country: 'US', tz: 'America/Chicago', lat: 41.974, lon: -87.907 },
  BOS: { city: 'Boston', name: 'Logan International', country: 'US', tz: 'America/New_York', lat: 42.366, lon: -71.010 },
  SEA: { city: 'Seattle', name: 'Seattle–Tacoma International', country: 'US', tz: 'America/Los_Angeles', lat: 47.450, lon: -122.309 },
  AUS: { city: 'Austin', name: 'Austin–Bergstrom International', country: 'US', tz: 'America/Chicago', lat: 30.197, lon: -97.666 },
  DEN: { city: 'Denver', name: 'Denver International', country: 'US', tz: 'America/Denver', lat: 39.856, lon: -104.674 },
  LHR: { city: 'London', name: 'Heathrow', country: 'GB', tz: 'Europe/London', lat: 51.470, lon: -0.454 },
  CDG: { city: 'Paris', name: 'Charles de Gaulle', country: 'FR', tz: 'Europe/Paris', lat: 49.010, lon: 2.548 },
  FRA: { city: 'Frankfurt', name: 'Frankfurt am Main', country: 'DE', tz: 'Europe/Berlin', lat: 50.038, lon: 8.562 },
  AMS: { city: 'Amsterdam', name: 'Schiphol', country: 'NL', tz: 'Europe/Amsterdam', lat: 52.310, lon: 4.768 },
  NRT: { city: 'Tokyo', name: 'Narita International', country: 'JP', tz: 'Asia/Tokyo', lat: 35.772, lon: 140.393 },
  SIN: { city: 'Singapore', name: 'Changi', country: 'SG', tz: 'Asia/Singapore', lat: 1.364, lon: 103.991 },
  YYZ: { city: 'Toronto', name: 'Toronto Pearson International', country: 'CA', tz: 'America/Toronto', lat: 43.678, lon: -79.625 },
};

/** The city of a known airport code, or null. */
export function airportCity(code: string): string | null {
  return Object.hasOwn(AIRPORTS, code) ? AIRPORTS[code]!.city : null;
}
