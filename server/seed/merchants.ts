import type { Region, SpendCategoryKey } from './reference-data.ts';

/**
 * Merchants per spend category and region. `GLOBAL` merchants bill in USD wherever the cardholder
 * sits (SaaS, ad networks); regional ones bill in the local currency.
 */
export type MerchantRegion = Region | 'GLOBAL';

export interface MerchantSpec {
  name: string;
  weight: number;
  /** Per-seat price (major units of the merchant's currency): amount = seats × price. */
  seat?: number;
  /** Typical sticker prices (major units); used most of the time instead of the category curve. */
  prices?: readonly number[];
}

export const CURRENCY_BY_REGION: Record<MerchantRegion, 'USD' | 'GBP' | 'EUR'> = {
  US: 'USD',
  GLOBAL: 'USD',
  UK: 'GBP',
  EU: 'EUR',
};

/** Rough USD → local factors so a London lunch costs about what a New York lunch does. */
export const USD_TO: Record<'USD' | 'GBP' | 'EUR', number> = { USD: 1, GBP: 0.79, EUR: 0.92 };

/** `m('Name', weight, { seat })`: keeps the tables below readable. */
const m = (name: string, weight = 1, extra: Omit<MerchantSpec, 'name' | 'weight'> = {}): MerchantSpec => ({
  name,
  weight,
  ...extra,
});

export const MERCHANTS: Record<SpendCategoryKey, Partial<Record<MerchantRegion, readonly MerchantSpec[]>>> = {
  software: {
    GLOBAL: [
      m('Google Workspace', 4, { seat: 14.4 }), m('Slack', 4, { seat: 8.75 }), m('Figma', 3, { seat: 15 }),
      m('Notion', 2, { seat: 10 }), m('Atlassian', 2, { seat: 8.15 }), m('GitHub', 3, { seat: 21 }),
      m('Zoom', 2, { seat: 15.99 }), m('Linear', 1.5, { seat: 8 }), m('1Password', 1, { seat: 7.99 }),
      m('DocuSign', 1, { prices: [25, 45, 65] }), m('Adobe', 1.5, { prices: [22.99, 59.99, 89.99] }),
      m('Loom', 1, { seat: 12.5 }), m('Miro', 1, { seat: 10 }), m('Calendly', 1, { seat: 12 }),
      m('Dropbox', 1, { seat: 15 }), m('Salesforce', 1.5, { seat: 165 }), m('HubSpot', 1.5, { prices: [800, 1600, 3600] }),
      m('Asana', 1, { seat: 10.99 }), m('Canva', 1, { prices: [119.99, 300] }), m('OpenAI', 2, { prices: [20, 25, 60, 200] }),
      m('Anthropic', 2, { prices: [20, 25, 100, 200] }), m('Vercel', 1, { seat: 20 }), m('Datadog', 1.5),
      m('Sentry', 1, { prices: [26, 80] }), m('Intercom', 1), m('Gusto', 1, { prices: [180, 240, 420] }),
    ],
  },
  cloud: {
    GLOBAL: [
      m('Amazon Web Services', 8), m('Google Cloud', 3), m('Microsoft Azure', 1.5), m('Snowflake', 2),
      m('Cloudflare', 1.5, { prices: [20, 200, 250] }), m('DigitalOcean', 1), m('MongoDB Atlas', 1), m('Heroku', 0.7),
    ],
  },
  airfare: {
    US: [
      m('Delta Air Lines', 5), m('United Airlines', 5), m('American Airlines', 4), m('Southwest Airlines', 3),
      m('JetBlue Airways', 2), m('Alaska Airlines', 1),
    ],
    UK: [m('British Airways', 5), m('Virgin Atlantic', 2), m('easyJet', 3), m('Eurostar', 3)],
    EU: [m('Lufthansa', 3), m('Air France', 3), m('KLM', 3), m('Ryanair', 2), m('Iberia', 1)],
  },
  lodging: {
    US: [
      m('Marriott', 5), m('Hilton', 5), m('Hyatt', 3), m('Airbnb', 3), m('Kimpton Hotels', 1),
      m('Holiday Inn Express', 1.5), m('Ace Hotel', 1), m('Hotel Tonight', 0.7),
    ],
    UK: [m('Premier Inn', 4), m('The Hoxton', 2), m('Hilton London', 2), m('Travelodge', 2), m('citizenM', 2)],
    EU: [m('Novotel', 2), m('ibis', 2), m('Motel One', 2), m('NH Hotels', 1.5), m('Booking.com', 3)],
  },
  ground: {
    US: [
      m('Uber', 10), m('Lyft', 7), m('Curb', 1), m('Amtrak', 1.5), m('Hertz', 1), m('Enterprise Rent-A-Car', 1),
      m('ParkMobile', 1, { prices: [6, 12, 18, 24] }), m('Revel', 0.5),
    ],
    UK: [
      m('Uber', 8), m('Addison Lee', 2), m('Transport for London', 5, { prices: [2.8, 8.1, 15.6] }),
      m('Trainline', 3), m('Heathrow Express', 2, { prices: [25, 37.5] }), m('Bolt', 2),
    ],
    EU: [m('Uber', 4), m('FREENOW', 2), m('Deutsche Bahn', 2), m('SNCF Connect', 2), m('Bolt', 1)],
  },
  meals: {
    US: [
      m('Starbucks', 8, { prices: [4.45, 5.95, 6.75, 12.4] }), m('Sweetgreen', 6), m('DoorDash', 6), m('Uber Eats', 4),
      m('Chipotle', 3), m('Blue Bottle Coffee', 3, { prices: [5.5, 6.25, 11] }), m('Shake Shack', 2), m('Grubhub', 2),
      m('CAVA', 2), m('Joe & The Juice', 1.5), m('Pret A Manger', 1.5), m('Balthazar', 1), m('Carbone', 0.6),
      m("Katz's Delicatessen", 0.8), m('Tartine Bakery', 1), m('Zuni Café', 0.6), m('Franklin Barbecue', 0.8),
      m('Uchi', 0.6), m('Nobu', 0.4),
    ],
    UK: [
      m('Pret A Manger', 8, { prices: [3.65, 6.5, 8.95] }), m('Dishoom', 2), m('Deliveroo', 4), m('Wagamama', 2),
      m('Costa Coffee', 3, { prices: [3.4, 3.95, 7.2] }), m('LEON', 2), m('itsu', 2), m('Hawksmoor', 0.7),
      m("GAIL's Bakery", 2),
    ],
    EU: [
      m('Le Pain Quotidien', 2), m('Starbucks', 2), m('Café de Flore', 1), m('Brasserie Lipp', 0.7),
      m('Markthalle Neun', 1), m('Wolt', 1.5),
    ],
  },
  team_meals: {
    US: [m('ezCater', 5), m('DoorDash', 3), m('ZeroCater', 2), m('Forkable', 2), m("Joe's Pizza", 2), m('Sweetgreen', 2)],
    UK: [m('Deliveroo', 4), m('Feedr', 2), m('Dishoom', 1), m('Franco Manca', 1)],
    EU: [m('Wolt', 2), m('Vapiano', 1)],
  },
  office: {
    US: [
      m('Staples', 5), m('Amazon', 10), m('Office Depot', 3), m('Costco', 2), m('Target', 2), m('Uline', 1.5),
      m('W.B. Mason', 1), m('The Container Store', 0.7),
    ],
    UK: [m('Amazon UK', 6), m('Ryman', 2), m('Viking Direct', 2), m('Tesco', 2), m('Argos', 1)],
    EU: [m('Amazon.de', 2), m('Bureau Vallée', 1)],
  },
  advertising: {
    GLOBAL: [
      m('Google Ads', 8), m('Meta Ads', 6), m('LinkedIn Ads', 5), m('Reddit Ads', 1), m('Microsoft Advertising', 1.5),
      m('X Ads', 0.5), m('Capterra', 1), m('G2', 1),
    ],
  },
  events: {
    GLOBAL: [m('Eventbrite', 4), m('SaaStr', 1, { prices: [1299, 1899] }), m('Luma', 2), m('Cvent', 1), m('Meetup', 1, { prices: [30, 60] })],
    EU: [m('Web Summit', 1, { prices: [995, 1495] })],
  },
  professional: {
    GLOBAL: [m('Upwork', 5), m('Fiverr', 2), m('Toptal', 2), m('Carta', 1.5, { prices: [2800, 5000] })],
    US: [m('Clerky', 1, { prices: [799, 1299] }), m('Pilot.com', 1, { prices: [599, 1199] }), m('Robert Half', 1.5), m('LegalZoom', 1)],
    UK: [m('Companies House', 1, { prices: [13, 34, 50] }), m('Upwork', 2)],
  },
  shipping: {
    US: [m('FedEx', 6), m('UPS', 4), m('USPS', 3), m('DHL Express', 1.5), m('Shippo', 1)],
    UK: [m('Royal Mail', 4), m('DHL Express', 2), m('Parcelforce', 1)],
    EU: [m('DHL Express', 2), m('La Poste', 1)],
  },
  equipment: {
    US: [
      m('Apple', 6, { prices: [1299, 1999, 2499, 3499, 129, 79, 199, 29, 99] }), m('Dell Technologies', 3, { prices: [229, 399, 1499] }),
      m('Best Buy', 3), m('B&H Photo', 2), m('Lenovo', 1), m('CDW', 1.5), m('Logitech', 1, { prices: [99, 129, 149] }),
    ],
    UK: [m('Apple', 4, { prices: [1299, 1999, 2499, 99, 79] }), m('Currys', 2), m('Scan Computers', 1)],
    EU: [m('MediaMarkt', 1)],
  },
  fuel: {
    US: [m('Shell', 5), m('Chevron', 5), m('ExxonMobil', 3), m('BP', 2), m('Costco Gas', 1.5), m('Sunoco', 1), m('Wawa', 1)],
    UK: [m('Shell', 3), m('BP', 3), m('Esso', 2)],
    EU: [m('TotalEnergies', 2), m('Aral', 1)],
  },
  coworking: {
    US: [m('WeWork', 5), m('Industrious', 3), m('Regus', 1.5), m('Convene', 1)],
    UK: [m('WeWork', 3), m('Second Home', 1), m('Huckletree', 1)],
    EU: [m('Spaces', 1)],
  },
  telecom: {
    US: [m('Verizon', 4), m('AT&T', 3), m('T-Mobile', 3), m('Comcast Business', 2)],
    UK: [m('Vodafone', 2), m('BT Business', 2), m('EE', 2)],
  },
  training: {
    GLOBAL: [
      m('Udemy', 3, { prices: [14.99, 19.99, 84.99] }), m('Coursera', 2), m("O'Reilly Media", 2, { prices: [499] }),
      m('LinkedIn Learning', 1), m('Pluralsight', 1, { prices: [299, 449] }), m('Maven', 1), m('Amazon', 1),
    ],
  },
  dues: {
    GLOBAL: [
      m('LinkedIn Premium', 3, { prices: [39.99, 59.99, 99.99] }), m('Crunchbase', 1, { prices: [49, 99, 588] }),
      m('PitchBook', 0.5), m('SHRM', 0.7, { prices: [244] }), m('AICPA', 0.5, { prices: [495] }), m('Costco Membership', 0.5, { prices: [65, 130] }),
    ],
  },
  gifts: {
    US: [m('Sendoso', 3), m('Snappy Gifts', 2), m('1-800-Flowers', 1.5), m('Harry & David', 1), m('Custom Ink', 2), m('Printful', 1.5)],
    UK: [m('Moonpig', 2), m('Interflora', 1), m('Not On The High Street', 1)],
  },
  recruiting: {
    GLOBAL: [m('LinkedIn Recruiter', 4), m('Indeed', 3), m('Wellfound', 2), m('Hired', 1)],
    UK: [m('Otta', 2), m('Indeed UK', 1)],
  },
};
