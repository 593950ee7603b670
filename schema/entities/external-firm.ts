import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';

/**
 * External accounting firms (issue 31, the advisor console): the firm, its users, its invites, its
 * application (§3 external_firm_applicant) and a client as the console lists it.
 * docs/design/issue-31-surfaces.md §2.3.
 */
export const FIRM_USER_ROLES = ['EXTERNAL_FIRM_ADMIN', 'EXTERNAL_FIRM_USER'] as const;
export const firmUserRoleSchema = z.enum(FIRM_USER_ROLES);
export type FirmUserRole = z.infer<typeof firmUserRoleSchema>;

export const ADVISOR_RIGHTS = ['READ', 'CODE', 'CLOSE_BOOKS'] as const;
export const advisorRightSchema = z.enum(ADVISOR_RIGHTS);
export type AdvisorRight = z.infer<typeof advisorRightSchema>;
/** Rights as asked: READ is always part of an authorization (a right to code what one cannot read is none). */
export const advisorRightsSchema = z
  .array(advisorRightSchema)
  .min(1)
  .max(3)
  .refine((r) => r.includes('READ'), 'rights must include READ')
  .refine((r) => new Set(r).size === r.length, 'rights must not repeat');

export const firmSchema = z.object({
  id: uuid,
  name: z.string(),
  status: z.enum(['ACTIVE', 'SUSPENDED']),
  has_logo: z.boolean(),
  created_at: isoDateTime,
});
export type Firm = z.infer<typeof firmSchema>;

export const firmUserSchema = z.object({
  id: uuid,
  firm_id: uuid,
  identity_id: uuid,
  role: firmUserRoleSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});
export type FirmUser = z.infer<typeof firmUserSchema>;

export const firmInviteSchema = z.object({
  id: uuid,
  email: z.string(),
  role: firmUserRoleSchema,
  status: z.enum(['OPEN', 'ACCEPTED', 'EXPIRED', 'REVOKED']),
  expires_at: isoDateTime,
  resend_count: z.number().int().nonnegative(),
});
export type FirmInvite = z.infer<typeof firmInviteSchema>;

/** `firm.get`: the firm, the caller's own firm user, its members and (admins) its open invites. */
export const firmViewSchema = z.object({
  firm: firmSchema,
  me: firmUserSchema,
  members: z.array(firmUserSchema),
  invites: z.array(firmInviteSchema),
});
export type FirmView = z.infer<typeof firmViewSchema>;

export const firmApplicationSchema = z.object({
  id: uuid,
  firm_name: z.string(),
  status: z.enum(['APPLIED', 'APPROVED', 'MANUAL_REVIEW']),
  reasons: z.array(z.string()),
  firm_id: uuid.nullable(),
  created_at: isoDateTime,
  decided_at: isoDateTime.nullable(),
});
export type FirmApplication = z.infer<typeof firmApplicationSchema>;

/**
 * A client of the firm as the console lists it. `open_items` are counted with the definitions the
 * client's own app uses (schema/report-tiles.ts missing tiles, the accounting "not synced" filter).
 */
export const firmClientSchema = z.object({
  business_id: uuid,
  business_name: z.string(),
  authorization_id: uuid,
  rights: z.array(advisorRightSchema),
  assigned_firm_user_ids: z.array(uuid),
  open_items: z.object({
    uncoded: z.number().int().nonnegative(),
    missing_receipts: z.number().int().nonnegative(),
    unsynced: z.number().int().nonnegative(),
    pending_bills: z.number().int().nonnegative(),
  }),
});
export type FirmClient = z.infer<typeof firmClientSchema>;

export const firmReferralSchema = z.object({
  id: uuid,
  code: z.string(),
  label: z.string(),
  created_at: isoDateTime,
});
export type FirmReferral = z.infer<typeof firmReferralSchema>;
