import type { Role } from '../../schema/roles.ts';
import type { DepartmentName, LocationName, SpendCategoryKey } from './reference-data.ts';

/**
 * The demo org chart as data: who reports to whom, where they sit, what they spend on, and which
 * cards they hold. Names are drawn from the pools below by the generator, so the chart is fixed but
 * a different seed gives different people.
 */

export type Persona = 'executive' | 'engineering' | 'product' | 'sales' | 'marketing' | 'success' | 'finance' | 'people' | 'operations';
export type CardKind = 'everyday' | 'travel' | 'software' | 'cloud' | 'marketing' | 'office' | 'events' | 'recruiting';

type Weights = Partial<Record<SpendCategoryKey, number>>;

/** What each kind of person puts on their everyday card. */
export const PERSONA_SPEND: Record<Persona, Weights> = {
  executive: { airfare: 5, lodging: 5, ground: 7, meals: 12, team_meals: 3, professional: 2, dues: 2, events: 2, gifts: 2, software: 1 },
  engineering: { software: 8, meals: 9, team_meals: 2, ground: 4, office: 3, equipment: 3, airfare: 1.2, lodging: 1.2, training: 2.5, telecom: 1, shipping: 0.5 },
  product: { software: 6, meals: 9, ground: 4, airfare: 2, lodging: 2, training: 2, office: 2, team_meals: 2, events: 1 },
  sales: { airfare: 6, lodging: 6, ground: 10, meals: 15, team_meals: 1.5, events: 2, gifts: 3, fuel: 3, software: 1.5, telecom: 1, coworking: 0.7 },
  marketing: { software: 4, meals: 7, events: 3, gifts: 3, ground: 3, airfare: 2, lodging: 2, shipping: 2, office: 1, training: 1 },
  success: { meals: 10, ground: 6, airfare: 3, lodging: 3, gifts: 3, software: 2, fuel: 2, shipping: 1, team_meals: 1 },
  finance: { software: 4, office: 5, professional: 3, dues: 2, meals: 5, shipping: 2, training: 1.5, telecom: 1, ground: 2 },
  people: { recruiting: 5, team_meals: 5, gifts: 4, meals: 5, software: 3, training: 2, office: 2, events: 1, ground: 1 },
  operations: { office: 8, shipping: 5, team_meals: 5, equipment: 4, coworking: 2, telecom: 3, meals: 4, ground: 2, fuel: 1, software: 1 },
};

export const PRIMARY_CARD_NAME: Record<Persona, string> = {
  executive: 'Executive card',
  engineering: 'Everyday card',
  product: 'Everyday card',
  sales: 'Sales T&E card',
  marketing: 'Everyday card',
  success: 'Customer visits card',
  finance: 'Finance card',
  people: 'People team card',
  operations: 'Operations card',
};

/** Single-purpose cards, named the way admins name them. */
export const CARD_KINDS: Record<Exclude<CardKind, 'everyday'>, { name: string; spend: Weights }> = {
  travel: { name: 'Travel card', spend: { airfare: 5, lodging: 5, ground: 5, meals: 3, fuel: 1 } },
  software: { name: 'Software card', spend: { software: 10 } },
  cloud: { name: 'Cloud infrastructure card', spend: { cloud: 10 } },
  marketing: { name: 'Marketing card', spend: { advertising: 8, events: 3, gifts: 2, shipping: 1 } },
  office: { name: 'Office supplies card', spend: { office: 8, shipping: 4, equipment: 3, team_meals: 3 } },
  events: { name: 'Events card', spend: { events: 6, team_meals: 4, gifts: 2, lodging: 1 } },
  recruiting: { name: 'Recruiting card', spend: { recruiting: 8, meals: 2, ground: 1 } },
};

export interface RosterEntry {
  key: string;
  role: Role;
  department: DepartmentName;
  location: LocationName;
  manager: string | null;
  persona: Persona;
  /** Cards beyond the everyday card; null: holds no card (the auditor only reads). */
  cards: readonly CardKind[] | null;
  /** Relative share of the business's transactions. */
  spend: number;
  /** Demo accounts sign in with `<demoEmail>@<domain>`. */
  demoEmail?: string;
  permissions?: readonly string[];
}

const e = (
  key: string,
  role: Role,
  department: DepartmentName,
  location: LocationName,
  manager: string | null,
  persona: Persona,
  cards: readonly CardKind[] | null,
  spend: number,
  extra: Pick<RosterEntry, 'demoEmail' | 'permissions'> = {},
): RosterEntry => ({ key, role, department, location, manager, persona, cards, spend, ...extra });

const U = 'BUSINESS_USER';

export const ROSTER: readonly RosterEntry[] = [
  e('ceo', 'BUSINESS_OWNER', 'Executive', 'New York HQ', null, 'executive', ['travel'], 1.6, { demoEmail: 'owner' }),
  e('controller', 'BUSINESS_ADMIN', 'Finance', 'New York HQ', 'ceo', 'finance', ['software'], 1.2, { demoEmail: 'admin' }),
  e('bookkeeper', 'BUSINESS_BOOKKEEPER', 'Finance', 'New York HQ', 'controller', 'finance', [], 0.6, { demoEmail: 'bookkeeper', permissions: ['COPILOT'] }),
  e('ap_clerk', U, 'Finance', 'Austin', 'controller', 'finance', ['office'], 0.7, { demoEmail: 'apclerk', permissions: ['AP_ACCESS'] }),
  e('auditor', 'AUDITOR', 'Finance', 'Remote - US', null, 'finance', null, 0, { demoEmail: 'auditor' }),
  e('cto', U, 'Engineering', 'San Francisco', 'ceo', 'executive', ['cloud'], 1.4),
  e('eng_manager', U, 'Engineering', 'New York HQ', 'cto', 'engineering', ['software'], 1.1, { demoEmail: 'manager' }),
  e('employee', U, 'Engineering', 'New York HQ', 'eng_manager', 'engineering', ['software'], 1.0, { demoEmail: 'employee' }),
  e('eng_ny_1', U, 'Engineering', 'New York HQ', 'eng_manager', 'engineering', [], 0.8),
  e('eng_ny_2', U, 'Engineering', 'New York HQ', 'eng_manager', 'engineering', ['travel'], 0.9),
  e('eng_austin', U, 'Engineering', 'Austin', 'eng_manager', 'engineering', [], 0.7),
  e('eng_remote_1', U, 'Engineering', 'Remote - US', 'eng_manager', 'engineering', [], 0.6),
  e('eng_remote_2', U, 'Engineering', 'Remote - US', 'eng_manager', 'engineering', ['cloud'], 0.9),
  e('eng_manager_sf', U, 'Engineering', 'San Francisco', 'cto', 'engineering', ['software'], 1.0),
  e('eng_sf_1', U, 'Engineering', 'San Francisco', 'eng_manager_sf', 'engineering', [], 0.7),
  e('eng_sf_2', U, 'Engineering', 'San Francisco', 'eng_manager_sf', 'engineering', [], 0.7),
  e('eng_sf_3', U, 'Engineering', 'San Francisco', 'eng_manager_sf', 'engineering', ['cloud'], 0.8),
  e('eng_london', U, 'Engineering', 'London', 'eng_manager_sf', 'engineering', [], 0.7),
  e('head_product', U, 'Product', 'San Francisco', 'ceo', 'product', ['travel'], 1.2),
  e('pm_1', U, 'Product', 'San Francisco', 'head_product', 'product', [], 0.8),
  e('pm_2', U, 'Product', 'New York HQ', 'head_product', 'product', ['software'], 0.8),
  e('design_lead', U, 'Design', 'San Francisco', 'head_product', 'product', ['software'], 0.9),
  e('designer_1', U, 'Design', 'Remote - US', 'design_lead', 'product', [], 0.6),
  e('designer_2', U, 'Design', 'New York HQ', 'design_lead', 'product', [], 0.6),
  e('vp_sales', U, 'Sales', 'New York HQ', 'ceo', 'sales', ['travel'], 1.7),
  e('ae_ny_1', U, 'Sales', 'New York HQ', 'vp_sales', 'sales', ['travel'], 1.5),
  e('ae_ny_2', U, 'Sales', 'New York HQ', 'vp_sales', 'sales', [], 1.3),
  e('ae_austin', U, 'Sales', 'Austin', 'vp_sales', 'sales', ['travel'], 1.4),
  e('ae_remote', U, 'Sales', 'Remote - US', 'vp_sales', 'sales', [], 1.2),
  e('sales_lead_emea', U, 'Sales', 'London', 'vp_sales', 'sales', ['travel'], 1.4),
  e('ae_london_1', U, 'Sales', 'London', 'sales_lead_emea', 'sales', [], 1.2),
  e('ae_london_2', U, 'Sales', 'London', 'sales_lead_emea', 'sales', [], 1.1),
  e('csm_london', U, 'Customer Success', 'London', 'sales_lead_emea', 'success', [], 0.9),
  e('head_marketing', U, 'Marketing', 'New York HQ', 'ceo', 'marketing', ['marketing'], 1.4),
  e('marketer_1', U, 'Marketing', 'New York HQ', 'head_marketing', 'marketing', ['marketing'], 1.1),
  e('marketer_2', U, 'Marketing', 'San Francisco', 'head_marketing', 'marketing', ['events'], 1.0),
  e('head_success', U, 'Customer Success', 'Austin', 'ceo', 'success', ['travel'], 1.1),
  e('csm_1', U, 'Customer Success', 'Austin', 'head_success', 'success', [], 0.8),
  e('csm_2', U, 'Customer Success', 'Austin', 'head_success', 'success', [], 0.8),
  e('people_lead', U, 'People', 'New York HQ', 'ceo', 'people', ['recruiting'], 1.0),
  e('recruiter', U, 'People', 'Remote - US', 'people_lead', 'people', ['recruiting'], 0.9),
  e('office_manager', U, 'Operations', 'New York HQ', 'controller', 'operations', ['office'], 1.3),
];

export const FIRST_NAMES = [
  'Olivia', 'Marcus', 'Priya', 'Daniel', 'Sofia', 'Kwame', 'Hannah', 'Mateo', 'Aisha', 'Ethan',
  'Mei', 'Jonah', 'Fatima', 'Lucas', 'Grace', 'Rahul', 'Chloe', 'Diego', 'Noor', 'Samuel',
  'Yuki', 'Isabel', 'Tomás', 'Amara', 'Benjamin', 'Leila', 'Oliver', 'Zoe', 'Andre', 'Ingrid',
  'Kenji', 'Maya', 'Nikolai', 'Ruth', 'Siddharth', 'Camille', 'Ibrahim', 'Elena', 'Patrick', 'Hye-jin',
  'Declan', 'Valentina', 'Oluwaseun', 'Freya', 'Gabriel', 'Anjali', 'Rosa', 'Theo', 'Nadia', 'Connor',
];

export const LAST_NAMES = [
  'Bennett', 'Okafor', 'Sharma', 'Kowalski', 'Martínez', 'Nguyen', 'Brooks', 'Haddad', 'Lindqvist', 'Chen',
  'Reyes', 'Fitzgerald', 'Adeyemi', 'Rossi', 'Park', 'Whitaker', 'Patel', "O'Brien", 'Johansson', 'Silva',
  'Tanaka', 'Mensah', 'Dubois', 'Kim', 'Abernathy', 'Castillo', 'Novak', 'Hughes', 'Iyer', 'Morgan',
  'Schmidt', 'Yamamoto', 'Oyelaran', 'García', 'Levin', 'Campbell', 'Das', 'Walsh', 'Moreau', 'Alvarez',
  'Sato', 'Goldberg', 'Mahmoud', 'Foster', 'Petrova', 'Ramírez', 'Kaur', 'Murphy', 'Eriksen', 'Coleman',
];
