import type { Business } from '../../schema/entities/business.ts';
import type { Card } from '../../schema/entities/card.ts';
import type { Department } from '../../schema/entities/department.ts';
import type { GlAccount } from '../../schema/entities/gl-account.ts';
import type { Location } from '../../schema/entities/location.ts';
import type { SpendUser } from '../../schema/entities/spend-user.ts';
import type { TrackingCategory } from '../../schema/entities/tracking-category.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import type { Role } from '../../schema/roles.ts';

export interface GenerateDemoOptions {
  transactions: number;
  /** The seed's "today": transactions fall in the 18 months before it. */
  now: Date;
  businessName?: string;
  emailDomain?: string;
  /** PRNG seed; the same options always give byte-identical output. */
  seed?: number;
}

/** A spend user as stored and mirrored: every §3 field plus the change-feed bookkeeping. */
export type DemoUser = SpendUser & {
  identity_id: string;
  change_seq: number;
  updated_at: string;
  deleted: boolean;
};

/** The sign-in identity behind a spend user (one each in the demo). */
export interface DemoIdentity {
  id: string;
  email: string;
  created_at: string;
}

/** A demo account to print and to sign in with (password DEMO_PASSWORD). */
export interface DemoAccount {
  email: string;
  role: Role;
  is_manager: boolean;
  user_id: string;
  name: string;
}

export interface DemoData {
  business: Business;
  departments: Department[];
  locations: Location[];
  glAccounts: GlAccount[];
  trackingCategories: TrackingCategory[];
  identities: DemoIdentity[];
  users: DemoUser[];
  cards: Card[];
  /** Ordered by occurred_at, so change_seq follows time as it would in production. */
  transactions: Transaction[];
  accounts: DemoAccount[];
  /** The highest change_seq handed out (rows carry 1..maxChangeSeq): the business counter. */
  maxChangeSeq: number;
}

export const DEMO_PASSWORD = 'demo-password-1';
export const DEFAULT_EMAIL_DOMAIN = 'demo.test';
export const DEFAULT_BUSINESS_NAME = 'Northwind Robotics, Inc.';
export const DEFAULT_SEED = 20_260_101;
export const HISTORY_MONTHS = 18;
