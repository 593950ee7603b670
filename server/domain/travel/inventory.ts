import { CABINS, type Cabin, type FlightSegment, type HotelStay, type Money } from '../../../schema/entities/trip.ts';
import { AIRPORTS, distanceKm, type Airport } from '../../../schema/travel/airports.ts';
import { fromUsd } from '../../../schema/travel/fx-rates.ts';

/**
 * Issue 27: the inventory flight and hotel search answer from, generated — pure and deterministic
 * from the route (or city), the date and the cabin: the same question always gets the same
 * flights, times and fares, so tests and demos repeat. Nothing here reads the clock or
 * Math.random; each route-day-carrier draws from its own seeded stream (FNV-1a → mulberry32; the
 * demo seed's sfc32 lives in server/seed, which imports domain/, so it cannot be shared here).
 *
 * Flights: up to four carriers (those of the origin's and the destination's countries, else the
 * global long-haul set), 1–3 nonstops each where the carrier flies nonstop, and one connection via
 * its hub when that is not a long detour. Duration = great-circle km / 800 km/h + 30 min, rounded
 * to 5 minutes; local times in the airports' time zones. Fares are computed in USD: economy ≈
 * $0.11/km + $60 per passenger and leg, ±20 % by flight, times the cabin multiplier; then priced
 * in the query's `currency` (the business's: schema/travel/fx-rates.ts, fixed rates, whole major
 * units) per passenger and night, so the price shown is the price the policy judges and charged. A return pairs the i-th
 * outbound with the i-th return of the same carrier. Hotels: 8–12 per city (seeded by the city's
 * name, so every airport of a city shows the same hotels), 2–5 stars, nightly rates by stars and
 * the city's cost level.
 */

export const CABIN_MULTIPLIER: Readonly<Record<Cabin, number>> = { ECONOMY: 1, PREMIUM_ECONOMY: 1.6, BUSINESS: 3.5, FIRST: 6 };
const KMH = 800;

type Carrier = { code: string; name: string; country: string; hub: string; longHaul: boolean };
const CARRIERS: readonly Carrier[] = [
  { code: 'AA', name: 'American Airlines', country: 'US', hub: 'DFW', longHaul: true },
  { code: 'DL', name: 'Delta Air Lines', country: 'US', hub: 'ATL', longHaul: true },
  { code: 'UA', name: 'United Airlines', country: 'US', hub: 'ORD', longHaul: true },
  { code: 'B6', name: 'JetBlue', country: 'US', hub: 'JFK', longHaul: false },
  { code: 'AS', name: 'Alaska Airlines', country: 'US', hub: 'SEA', longHaul: false },
  { code: 'WN', name: 'Southwest Airlines', country: 'US', hub: 'DAL', longHaul: false },
  { code: 'AC', name: 'Air Canada', country: 'CA', hub: 'YYZ', longHaul: true },
  { code: 'WS', name: 'WestJet', country: 'CA', hub: 'YYC', longHaul: false },
  { code: 'AM', name: 'Aeroméxico', country: 'MX', hub: 'MEX', longHaul: true },
  { code: 'CM', name: 'Copa Airlines', country: 'PA', hub: 'PTY', longHaul: false },
  { code: 'LA', name: 'LATAM Airlines', country: 'CL', hub: 'SCL', longHaul: true },
  { code: 'G3', name: 'GOL Linhas Aéreas', country: 'BR', hub: 'GRU', longHaul: false },
  { code: 'AV', name: 'Avianca', country: 'CO', hub: 'BOG', longHaul: true },
  { code: 'AR', name: 'Aerolíneas Argentinas', country: 'AR', hub: 'EZE', longHaul: true },
  { code: 'BA', name: 'British Airways', country: 'GB', hub: 'LHR', longHaul: true },
  { code: 'EI', name: 'Aer Lingus', country: 'IE', hub: 'DUB', longHaul: true },
  { code: 'AF', name: 'Air France', country: 'FR', hub: 'CDG', longHaul: true },
  { code: 'KL', name: 'KLM', country: 'NL', hub: 'AMS', longHaul: true },
  { code: 'LH', name: 'Lufthansa', country: 'DE', hub: 'FRA', longHaul: true },
  { code: 'LX', name: 'SWISS', country: 'CH', hub: 'ZRH', longHaul: true },
  { code: 'OS', name: 'Austrian Airlines', country: 'AT', hub: 'VIE', longHaul: true },
  { code: 'IB', name: 'Iberia', country: 'ES', hub: 'MAD', longHaul: true },
  { code: 'TP', name: 'TAP Air Portugal', country: 'PT', hub: 'LIS', longHaul: true },
  { code: 'AZ', name: 'ITA Airways', country: 'IT', hub: 'FCO', longHaul: true },
  { code: 'SK', name: 'SAS', country: 'DK', hub: 'CPH', longHaul: true },
  { code: 'AY', name: 'Finnair', country: 'FI', hub: 'HEL', longHaul: true },
  { code: 'LO', name: 'LOT Polish Airlines', country: 'PL', hub: 'WAW', longHaul: true },
  { code: 'TK', name: 'Turkish Airlines', country: 'TR', hub: 'IST', longHaul: true },
  { code: 'EK', name: 'Emirates', country: 'AE', hub: 'DXB', longHaul: true },
  { code: 'QR', name: 'Qatar Airways', country: 'QA', hub: 'DOH', longHaul: true },
  { code: 'EY', name: 'Etihad Airways', country: 'AE', hub: 'AUH', longHaul: true },
  { code: 'LY', name: 'El Al', country: 'IL', hub: 'TLV', longHaul: true },
  { code: 'MS', name: 'EgyptAir', country: 'EG', hub: 'CAI', longHaul: true },
  { code: 'ET', name: 'Ethiopian Airlines', country: 'ET', hub: 'ADD', longHaul: true },
  { code: 'KQ', name: 'Kenya Airways', country: 'KE', hub: 'NBO', longHaul: true },
  { code: 'SA', name: 'South African Airways', country: 'ZA', hub: 'JNB', longHaul: true },
  { code: 'AT', name: 'Royal Air Maroc', country: 'MA', hub: 'CMN', longHaul: true },
  { code: 'AI', name: 'Air India', country: 'IN', hub: 'DEL', longHaul: true },
  { code: '6E', name: 'IndiGo', country: 'IN', hub: 'BOM', longHaul: false },
  { code: 'SQ', name: 'Singapore Airlines', country: 'SG', hub: 'SIN', longHaul: true },
  { code: 'MH', name: 'Malaysia Airlines', country: 'MY', hub: 'KUL', longHaul: true },
  { code: 'TG', name: 'Thai Airways', country: 'TH', hub: 'BKK', longHaul: true },
  { code: 'GA', name: 'Garuda Indonesia', country: 'ID', hub: 'CGK', longHaul: true },
  { code: 'PR', name: 'Philippine Airlines', country: 'PH', hub: 'MNL', longHaul: true },
  { code: 'VN', name: 'Vietnam Airlines', country: 'VN', hub: 'HAN', longHaul: true },
  { code: 'CX', name: 'Cathay Pacific', country: 'HK', hub: 'HKG', longHaul: true },
  { code: 'CI', name: 'China Airlines', country: 'TW', hub: 'TPE', longHaul: true },
  { code: 'CA', name: 'Air China', country: 'CN', hub: 'PEK', longHaul: true },
  { code: 'MU', name: 'China Eastern', country: 'CN', hub: 'PVG', longHaul: true },
  { code: 'NH', name: 'ANA', country: 'JP', hub: 'HND', longHaul: true },
  { code: 'JL', name: 'Japan Airlines', country: 'JP', hub: 'NRT', longHaul: true },
  { code: 'KE', name: 'Korean Air', country: 'KR', hub: 'ICN', longHaul: true },
  { code: 'QF', name: 'Qantas', country: 'AU', hub: 'SYD', longHaul: true },
  { code: 'VA', name: 'Virgin Australia', country: 'AU', hub: 'BNE', longHaul: false },
  { code: 'NZ', name: 'Air New Zealand', country: 'NZ', hub: 'AKL', longHaul: true },
];
/** Who flies a route no local carrier serves: the big connecting carriers. */
const GLOBAL = ['EK', 'QR', 'TK', 'LH'];
const MAX_CARRIERS = 4;

// ---- Seeded numbers ----

function fnv1a(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32 seeded by the label: a function returning floats in [0, 1). */
function seeded(label: string): () => number {
  let s = fnv1a(label);
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const intIn = (r: () => number, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const pickOf = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

// ---- Local times ----

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** The zone's UTC offset in minutes at an instant (e.g. -300 for New York in winter). */
function utcOffsetMinutes(tz: string, at: number): number {
  let f = offsetFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' });
    offsetFormats.set(tz, f);
  }
  const name = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** The instant (ms) of a local wall-clock time in a zone: the offset is settled in two passes (DST edges). */
export function localToInstant(date: string, minuteOfDay: number, tz: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minuteOfDay * 60_000;
  const first = wall - utcOffsetMinutes(tz, wall) * 60_000;
  return wall - utcOffsetMinutes(tz, first) * 60_000;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as the zone's local ISO date-time with its offset: 2026-12-01T08:35:00-05:00. */
export function localIso(at: number, tz: string): string {
  const off = utcOffsetMinutes(tz, at);
  const local = new Date(at + off * 60_000).toISOString().slice(0, 19);
  const sign = off < 0 ? '-' : '+';
  return `${local}${sign}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

// ---- Flights ----

/** `currency`: what to price in (schema/travel/fx-rates.ts `inventoryCurrency`); USD when absent. */
export type FlightQuery = {
  origin: string; destination: string; depart_date: string; return_date?: string | undefined; cabin?: Cabin | undefined; passengers: number;
  currency?: string | undefined;
};
export type GeneratedFlight = { cabin: Cabin; passengers: number; segments: FlightSegment[]; stops: number; price: Money };
/** One way's itinerary before a cabin is chosen: its legs and the economy fare per passenger (minor units). */
type Itinerary = { carrier: Carrier; legs: Omit<FlightSegment, 'cabin'>[]; fare: number };

export const flightMinutes = (km: number) => Math.max(30, Math.round((km / KMH) * 60 / 5) * 5 + 30);
const legFare = (km: number) => km * 11 + 6_000; // cents: $0.11/km + $60

function carriersFor(from: Airport, to: Airport, r: () => number): Carrier[] {
  const local = CARRIERS.filter((c) => c.country === from.country || c.country === to.country);
  const chosen = local.length > 0 ? local : CARRIERS.filter((c) => GLOBAL.includes(c.code));
  const shuffled = chosen.map((c) => ({ c, k: r() })).sort((a, b) => a.k - b.k).map((x) => x.c);
  return shuffled.slice(0, MAX_CARRIERS).sort((a, b) => (a.code < b.code ? -1 : 1));
}

function leg(carrier: Carrier, r: () => number, from: string, to: string, departs: number): Omit<FlightSegment, 'cabin'> {
  const a = AIRPORTS[from]!, b = AIRPORTS[to]!;
  const minutes = flightMinutes(distanceKm(a, b));
  const arrives = departs + minutes * 60_000;
  return {
    airline_code: carrier.code, airline_name: carrier.name, flight_number: `${carrier.code}${intIn(r, 10, 2999)}`,
    origin: from, destination: to, departs_at: localIso(departs, a.tz), arrives_at: localIso(arrives, b.tz), duration_minutes: minutes,
  };
}

/** One carrier's itineraries for one way on one date: nonstops (where it flies them) and one connection via its hub. */
function carrierItineraries(carrier: Carrier, origin: string, destination: string, date: string, anyDetour = false): Itinerary[] {
  const r = seeded(`${origin}|${destination}|${date}|${carrier.code}`);
  const from = AIRPORTS[origin]!, to = AIRPORTS[destination]!;
  const km = distanceKm(from, to);
  const home = carrier.country === from.country || carrier.country === to.country;
  const nonstop = km <= 15_000 && (km <= 6_000 || (home && carrier.longHaul));
  const out: Itinerary[] = [];
  const jitter = () => 0.8 + r() * 0.4;
  if (nonstop) {
    const count = km < 2_500 ? 3 : km < 7_000 ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const minute = ((intIn(r, 0, 191) + i * 47) % 192) * 5 + 360; // 06:00–21:55, 5-minute steps
      const l = leg(carrier, r, origin, destination, localToInstant(date, minute, from.tz));
      out.push({ carrier, legs: [l], fare: Math.round((legFare(km) * jitter()) / 100) * 100 });
    }
  }
  const hub = AIRPORTS[carrier.hub]!;
  const viaKm = distanceKm(from, hub) + distanceKm(hub, to);
  if (carrier.hub !== origin && carrier.hub !== destination && (anyDetour || viaKm <= km * 1.6)) {
    const first = leg(carrier, r, origin, carrier.hub, localToInstant(date, intIn(r, 6 * 12, 20 * 12) * 5, from.tz));
    const layover = intIn(r, 12, 36) * 5; // 60–180 minutes
    const second = leg(carrier, r, carrier.hub, destination, Date.parse(first.arrives_at) + layover * 60_000);
    // A connection sells below the nonstop of the same distance.
    out.push({ carrier, legs: [first, second], fare: Math.round((legFare(viaKm) * 0.8 * jitter()) / 100) * 100 });
  }
  return out;
}

/** One way's itineraries; a route its carriers cannot fly (too far for a nonstop, no hub on the way) goes via the global carriers' hubs. */
function oneWay(origin: string, destination: string, date: string): Itinerary[] {
  const carriers = carriersFor(AIRPORTS[origin]!, AIRPORTS[destination]!, seeded(`${origin}|${destination}|carriers`));
  const flown = carriers.flatMap((c) => carrierItineraries(c, origin, destination, date));
  if (flown.length > 0) return flown;
  return CARRIERS.filter((c) => GLOBAL.includes(c.code)).flatMap((c) => carrierItineraries(c, origin, destination, date, true));
}

/** The cabins a flight sells: first class only from 4,000 km, premium economy from 1,500 km. */
const cabinsSold = (km: number): Cabin[] => CABINS.filter((c) => (c === 'FIRST' ? km >= 4_000 : c === 'PREMIUM_ECONOMY' ? km >= 1_500 : true));

const departOf = (f: GeneratedFlight) => f.segments[0]!.departs_at;
/** Cheapest first; ties by departure, then flight number (a total order: the answer never reshuffles). */
export function compareFlights(a: GeneratedFlight, b: GeneratedFlight): number {
  if (a.price.amount !== b.price.amount) return a.price.amount - b.price.amount;
  const da = Date.parse(departOf(a)), db = Date.parse(departOf(b));
  if (da !== db) return da - db;
  const ka = a.segments.map((s) => s.flight_number).join() + a.cabin, kb = b.segments.map((s) => s.flight_number).join() + b.cabin;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The flights of a search: every itinerary out (paired with a return of the same carrier when a
 * return date is given) in the asked cabin, or in every cabin it sells; sorted by price.
 * The codes must be known airports (the caller checked: schema/travel-booking-rules.ts).
 */
export function searchFlightInventory(q: FlightQuery): GeneratedFlight[] {
  const outs = oneWay(q.origin, q.destination, q.depart_date);
  const backs = q.return_date ? oneWay(q.destination, q.origin, q.return_date) : [];
  const trips: { legs: Itinerary['legs']; fare: number; stops: number }[] = [];
  for (const out of outs) {
    const stops = out.legs.length - 1;
    if (!q.return_date) {
      trips.push({ legs: out.legs, fare: out.fare, stops });
      continue;
    }
    const same = backs.filter((b) => b.carrier.code === out.carrier.code);
    const back = same[outs.filter((o) => o.carrier.code === out.carrier.code).indexOf(out) % Math.max(1, same.length)];
    if (back) trips.push({ legs: [...out.legs, ...back.legs], fare: out.fare + back.fare, stops });
  }
  const direct = distanceKm(AIRPORTS[q.origin]!, AIRPORTS[q.destination]!);
  const result: GeneratedFlight[] = [];
  for (const t of trips) {
    for (const cabin of q.cabin ? [q.cabin] : cabinsSold(direct)) {
      const perPassenger = fromUsd(Math.round((t.fare * CABIN_MULTIPLIER[cabin]) / 100) * 100, q.currency ?? 'USD');
      result.push({
        cabin, passengers: q.passengers, segments: t.legs.map((l) => ({ ...l, cabin })),
        stops: t.stops,
        price: { amount: perPassenger.amount * q.passengers, currency: perPassenger.currency },
      });
    }
  }
  return result.sort(compareFlights);
}

// ---- Hotels ----

export type HotelQuery = { city: string; check_in: string; check_out: string; currency?: string | undefined };
export type GeneratedHotel = { hotel: HotelStay; price: Money };

const NAME_HEADS = ['Grand', 'Park', 'Riverside', 'Central', 'Old Town', 'Skyline', 'Garden', 'Station', 'Royal', 'Meridian', 'Lantern', 'Harbour', 'Avenue', 'Cedar', 'Atlas', 'Northlight'];
const NAME_TAILS = ['Hotel', 'Suites', 'Inn', 'Residences', 'House', 'Lodge'];
const STREETS = ['Market Street', 'King Street', 'Station Road', 'Harbour Way', 'Park Avenue', 'Church Street', 'High Street', 'River Road', 'Garden Lane', 'Cathedral Square', 'Museum Walk', 'Union Place'];
const STAR_BASE: Readonly<Record<number, number>> = { 2: 9_000, 3: 14_000, 4: 22_000, 5: 38_000 };
/** Cities dearer than their country (cost level 1.6). */
const DEAR_CITIES = new Set(['New York', 'San Francisco', 'London', 'Zurich', 'Geneva', 'Paris', 'Tokyo', 'Singapore', 'Hong Kong', 'Oslo', 'Boston', 'Washington', 'Dubai', 'Sydney']);
const DEAR_COUNTRIES = new Set(['US', 'CA', 'GB', 'IE', 'CH', 'NO', 'DK', 'SE', 'IS', 'FI', 'NL', 'LU', 'AU', 'NZ', 'JP', 'SG', 'HK', 'AE', 'QA', 'IL', 'FR', 'DE', 'AT', 'BE']);
const CHEAP_COUNTRIES = new Set(['IN', 'VN', 'TH', 'ID', 'PH', 'EG', 'MX', 'PK', 'BD', 'NP', 'LK', 'KH', 'MM', 'MA', 'TN', 'DZ', 'CO', 'PE', 'BO', 'PY', 'TR', 'UZ', 'KZ', 'ET', 'KE', 'UG', 'TZ', 'NG', 'GH']);

/** How dear a city's hotels are against the base rates. */
export function cityCostLevel(a: Pick<Airport, 'city' | 'country'>): number {
  if (DEAR_CITIES.has(a.city)) return 1.6;
  if (DEAR_COUNTRIES.has(a.country)) return 1.25;
  return CHEAP_COUNTRIES.has(a.country) ? 0.6 : 1;
}

const nightsBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The hotels of a city for a stay, sorted by total price (ties by hotel id). */
export function searchHotelInventory(q: HotelQuery): GeneratedHotel[] {
  const place = AIRPORTS[q.city]!;
  const r = seeded(`hotels|${place.city}|${place.country}`);
  const count = intIn(r, 8, 12);
  const nights = nightsBetween(q.check_in, q.check_out);
  const level = cityCostLevel(place);
  const names = new Set<string>();
  const out: GeneratedHotel[] = [];
  for (let i = 0; i < count; i++) {
    let name = '';
    do name = `${pickOf(r, NAME_HEADS)} ${pickOf(r, NAME_TAILS)} ${place.city}`; while (names.has(name));
    names.add(name);
    const stars = intIn(r, 2, 5);
    const nightly = fromUsd(Math.round((STAR_BASE[stars]! * level * (0.85 + r() * 0.35)) / 100) * 100, q.currency ?? 'USD');
    const address = `${intIn(r, 1, 250)} ${pickOf(r, STREETS)}, ${place.city}`;
    const checkInTime = pickOf(r, ['14:00', '15:00', '16:00']);
    out.push({
      hotel: {
        hotel_id: `${q.city}-H${pad(i + 1)}`, name, city: q.city, address, stars, check_in: q.check_in, check_out: q.check_out, nights,
        nightly, check_in_time: checkInTime,
      },
      price: { amount: nightly.amount * nights, currency: nightly.currency },
    });
  }
  return out.sort((a, b) => a.price.amount - b.price.amount || (a.hotel.hotel_id < b.hotel.hotel_id ? -1 : 1));
}
