/**
 * The demo business's chart: departments, offices, GL accounts, tracking categories and the spend
 * categories that tie merchants to GL accounts and amount distributions. Plain data, no randomness.
 */

export const DEPARTMENTS = [
  'Executive',
  'Engineering',
  'Product',
  'Design',
  'Sales',
  'Marketing',
  'Customer Success',
  'Finance',
  'People',
  'Operations',
] as const;
export type DepartmentName = (typeof DEPARTMENTS)[number];

/** Where merchants are drawn from: a London cardholder mostly pays UK (GBP) and EU (EUR) merchants. */
export type Region = 'US' | 'UK' | 'EU';

export interface OfficeLocation {
  name: string;
  region: Region;
  /** Hours from UTC (standard time; daylight saving is noise at this level of realism). */
  utcOffset: number;
  /** Tracking option name under "Region". */
  trackingRegion: 'North America' | 'EMEA';
}

export const LOCATIONS = [
  { name: 'New York HQ', region: 'US', utcOffset: -5, trackingRegion: 'North America' },
  { name: 'San Francisco', region: 'US', utcOffset: -8, trackingRegion: 'North America' },
  { name: 'Austin', region: 'US', utcOffset: -6, trackingRegion: 'North America' },
  { name: 'London', region: 'UK', utcOffset: 0, trackingRegion: 'EMEA' },
  { name: 'Remote - US', region: 'US', utcOffset: -6, trackingRegion: 'North America' },
] as const satisfies readonly OfficeLocation[];
export type LocationName = (typeof LOCATIONS)[number]['name'];

export type GlClassification = 'EXPENSE' | 'ASSET' | 'LIABILITY' | 'EQUITY' | 'REVENUE';
export interface GlAccountSpec {
  code: string;
  name: string;
  classification: GlClassification;
  active: boolean;
}

export const GL_ACCOUNTS: readonly GlAccountSpec[] = [
  { code: '1400', name: 'Prepaid Expenses', classification: 'ASSET', active: true },
  { code: '1500', name: 'Computer Equipment (Capitalized)', classification: 'ASSET', active: true },
  { code: '2100', name: 'Corporate Card Payable', classification: 'LIABILITY', active: true },
  { code: '6010', name: 'Software & Subscriptions', classification: 'EXPENSE', active: true },
  { code: '6011', name: 'Cloud Hosting & Infrastructure', classification: 'EXPENSE', active: true },
  { code: '6020', name: 'Travel - Airfare', classification: 'EXPENSE', active: true },
  { code: '6021', name: 'Travel - Lodging', classification: 'EXPENSE', active: true },
  { code: '6022', name: 'Travel - Ground Transportation', classification: 'EXPENSE', active: true },
  { code: '6030', name: 'Meals & Entertainment', classification: 'EXPENSE', active: true },
  { code: '6031', name: 'Team Meals & Events', classification: 'EXPENSE', active: true },
  { code: '6040', name: 'Office Supplies', classification: 'EXPENSE', active: true },
  { code: '6050', name: 'Advertising', classification: 'EXPENSE', active: true },
  { code: '6051', name: 'Conferences & Sponsorships', classification: 'EXPENSE', active: true },
  { code: '6060', name: 'Professional Services', classification: 'EXPENSE', active: true },
  { code: '6070', name: 'Shipping & Postage', classification: 'EXPENSE', active: true },
  { code: '6080', name: 'Equipment', classification: 'EXPENSE', active: true },
  { code: '6090', name: 'Fuel & Mileage', classification: 'EXPENSE', active: true },
  { code: '6100', name: 'Rent & Coworking', classification: 'EXPENSE', active: true },
  { code: '6110', name: 'Telephone & Internet', classification: 'EXPENSE', active: true },
  { code: '6120', name: 'Training & Education', classification: 'EXPENSE', active: true },
  { code: '6130', name: 'Dues & Memberships', classification: 'EXPENSE', active: true },
  { code: '6140', name: 'Gifts & Swag', classification: 'EXPENSE', active: true },
  { code: '6150', name: 'Recruiting', classification: 'EXPENSE', active: true },
  // Retired after the chart of accounts was cleaned up; kept so old exports still resolve.
  { code: '6990', name: 'Miscellaneous (Legacy)', classification: 'EXPENSE', active: false },
];

export interface TrackingCategorySpec {
  name: string;
  options: readonly string[];
}

export const TRACKING_CATEGORIES: readonly TrackingCategorySpec[] = [
  {
    name: 'Project',
    options: ['Apollo Launch', 'Atlas Platform', 'Beacon Mobile', 'Horizon Analytics', 'Internal Tools'],
  },
  {
    name: 'Cost center',
    options: ['CC-100 General & Administrative', 'CC-200 Research & Development', 'CC-300 Sales & Marketing', 'CC-400 Cost of Revenue'],
  },
  { name: 'Region', options: ['North America', 'EMEA'] },
];

/** Which cost center a department books to (the bookkeeper codes it this way every time). */
export const COST_CENTER_BY_DEPARTMENT: Record<DepartmentName, string> = {
  Executive: 'CC-100 General & Administrative',
  Engineering: 'CC-200 Research & Development',
  Product: 'CC-200 Research & Development',
  Design: 'CC-200 Research & Development',
  Sales: 'CC-300 Sales & Marketing',
  Marketing: 'CC-300 Sales & Marketing',
  'Customer Success': 'CC-400 Cost of Revenue',
  Finance: 'CC-100 General & Administrative',
  People: 'CC-100 General & Administrative',
  Operations: 'CC-100 General & Administrative',
};

export const SPEND_CATEGORY_KEYS = [
  'software',
  'cloud',
  'airfare',
  'lodging',
  'ground',
  'meals',
  'team_meals',
  'office',
  'advertising',
  'events',
  'professional',
  'shipping',
  'equipment',
  'fuel',
  'coworking',
  'telecom',
  'training',
  'dues',
  'gifts',
  'recruiting',
] as const;
export type SpendCategoryKey = (typeof SPEND_CATEGORY_KEYS)[number];

export interface SpendCategory {
  /** The card network's merchant category, as shown on the transaction. */
  merchantCategory: string;
  glCode: string;
  /** Amount in USD major units: log-normal around `median`, clamped to [min, max]. */
  median: number;
  sigma: number;
  min: number;
  max: number;
  /** Share of charges that come back as refunds. */
  refundRate: number;
  /** Charged in person (business hours, rarely on weekends) or by a billing system (any time). */
  inPerson: boolean;
  /** Memos people write; `{city}` and `{client}` are filled in. */
  memos: readonly string[];
}

export const SPEND_CATEGORIES: Record<SpendCategoryKey, SpendCategory> = {
  software: {
    merchantCategory: 'Software', glCode: '6010', median: 60, sigma: 1.0, min: 5, max: 6000,
    refundRate: 0.01, inPerson: false,
    memos: ['Monthly subscription', 'Annual plan renewal', 'Added seats for new hires', 'Trial converted to paid'],
  },
  cloud: {
    merchantCategory: 'Cloud Computing', glCode: '6011', median: 900, sigma: 1.1, min: 20, max: 45000,
    refundRate: 0.005, inPerson: false,
    memos: ['Production infrastructure', 'Staging environment', 'Data warehouse usage', 'Load testing credits'],
  },
  airfare: {
    merchantCategory: 'Airlines', glCode: '6020', median: 420, sigma: 0.55, min: 79, max: 3800,
    refundRate: 0.04, inPerson: true,
    memos: ['Flight to {city} for {client} QBR', 'Team offsite in {city}', 'Conference travel to {city}', 'Customer onsite in {city}'],
  },
  lodging: {
    merchantCategory: 'Lodging', glCode: '6021', median: 520, sigma: 0.6, min: 110, max: 4200,
    refundRate: 0.02, inPerson: true,
    memos: ['Hotel for {client} onsite', '{city} trip, 2 nights', 'Conference hotel in {city}', 'Offsite accommodation'],
  },
  ground: {
    merchantCategory: 'Taxi & Rideshare', glCode: '6022', median: 27, sigma: 0.6, min: 6, max: 260,
    refundRate: 0.01, inPerson: true,
    memos: ['Airport transfer', 'To {client} office', 'Late night after release', 'Client visit in {city}'],
  },
  meals: {
    merchantCategory: 'Restaurants', glCode: '6030', median: 38, sigma: 0.85, min: 4, max: 950,
    refundRate: 0.005, inPerson: true,
    memos: ['Client dinner with {client}', 'Lunch with candidate', 'Coffee with {client}', 'Working lunch'],
  },
  team_meals: {
    merchantCategory: 'Catering', glCode: '6031', median: 290, sigma: 0.6, min: 60, max: 2600,
    refundRate: 0.01, inPerson: true,
    memos: ['Team lunch', 'Sprint demo pizza', 'All-hands catering', 'Quarterly team dinner', 'Welcome lunch for new hires'],
  },
  office: {
    merchantCategory: 'Office Supplies', glCode: '6040', median: 62, sigma: 0.9, min: 3, max: 1600,
    refundRate: 0.03, inPerson: true,
    memos: ['Printer paper and toner', 'Kitchen supplies', 'Whiteboard markers', 'Desk setup for new hire'],
  },
  advertising: {
    merchantCategory: 'Advertising', glCode: '6050', median: 1300, sigma: 1.1, min: 50, max: 28000,
    refundRate: 0.005, inPerson: false,
    memos: ['Q{quarter} paid search', 'Retargeting campaign', 'Product launch campaign', 'Webinar promotion'],
  },
  events: {
    merchantCategory: 'Events & Conferences', glCode: '6051', median: 850, sigma: 1.0, min: 40, max: 15000,
    refundRate: 0.03, inPerson: false,
    memos: ['Conference tickets', 'Booth sponsorship', 'Meetup sponsorship in {city}', 'Customer event venue deposit'],
  },
  professional: {
    merchantCategory: 'Professional Services', glCode: '6060', median: 2200, sigma: 0.9, min: 150, max: 30000,
    refundRate: 0.005, inPerson: false,
    memos: ['Contract designer, milestone 2', 'Cap table administration', 'Legal filing fees', 'Temp staffing'],
  },
  shipping: {
    merchantCategory: 'Courier Services', glCode: '6070', median: 34, sigma: 0.9, min: 7, max: 650,
    refundRate: 0.01, inPerson: true,
    memos: ['Laptop return from departing employee', 'Contracts to {client}', 'Swag to customers', 'Hardware to remote hire'],
  },
  equipment: {
    merchantCategory: 'Computers & Electronics', glCode: '6080', median: 420, sigma: 1.1, min: 19, max: 4800,
    refundRate: 0.04, inPerson: true,
    memos: ['Laptop for new hire', 'Monitors for {city} office', 'Replacement charger', 'Conference room camera'],
  },
  fuel: {
    merchantCategory: 'Gas Stations', glCode: '6090', median: 52, sigma: 0.3, min: 12, max: 130,
    refundRate: 0, inPerson: true,
    memos: ['Rental car refuel', 'Drive to {client} in {city}'],
  },
  coworking: {
    merchantCategory: 'Coworking', glCode: '6100', median: 480, sigma: 0.6, min: 30, max: 3200,
    refundRate: 0.01, inPerson: false,
    memos: ['Day passes for offsite', 'Hot desk membership', 'Meeting room booking'],
  },
  telecom: {
    merchantCategory: 'Telecommunications', glCode: '6110', median: 90, sigma: 0.5, min: 20, max: 450,
    refundRate: 0.005, inPerson: false,
    memos: ['Office internet', 'Mobile plan', 'International roaming'],
  },
  training: {
    merchantCategory: 'Education', glCode: '6120', median: 320, sigma: 0.8, min: 15, max: 3200,
    refundRate: 0.02, inPerson: false,
    memos: ['Course from learning budget', 'Certification exam', 'Books for the team'],
  },
  dues: {
    merchantCategory: 'Memberships', glCode: '6130', median: 240, sigma: 0.8, min: 20, max: 2600,
    refundRate: 0.005, inPerson: false,
    memos: ['Annual membership', 'Data subscription renewal'],
  },
  gifts: {
    merchantCategory: 'Gifts', glCode: '6140', median: 90, sigma: 0.7, min: 15, max: 900,
    refundRate: 0.02, inPerson: false,
    memos: ['Thank-you gift for {client}', 'Team hoodies', 'Work anniversary gift', 'Customer holiday gifts'],
  },
  recruiting: {
    merchantCategory: 'Recruiting', glCode: '6150', median: 450, sigma: 0.8, min: 49, max: 5200,
    refundRate: 0.01, inPerson: false,
    memos: ['Job post for senior engineer', 'Recruiter seat', 'Sponsored job listing'],
  },
};

/** Equipment above this (USD) is capitalized rather than expensed. */
export const CAPITALIZATION_THRESHOLD_USD = 2500;

/** Fillers for memo templates. */
export const MEMO_CITIES = ['Chicago', 'Boston', 'Denver', 'Seattle', 'Atlanta', 'Toronto', 'Miami', 'Dublin', 'Berlin', 'Paris'];
export const MEMO_CLIENTS = ['Acme', 'Globex', 'Initech', 'Umbrella Health', 'Stark Logistics', 'Wayne Retail', 'Hooli', 'Soylent Foods'];
