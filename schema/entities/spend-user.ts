import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { roleSchema } from '../roles.ts';

const externalFirmRoleSchema = z.enum(['EXTERNAL_FIRM_ADMIN', 'EXTERNAL_FIRM_USER']);

/** Spend user: every §3 field, plus the names and reporting line the product shows. */
export const spendUserSchema = z.object({
  id: uuid,
  role: roleSchema,
  business_id: uuid,
  external_firm: z.object({ uuid: uuid, id: z.string() }).nullable(),
  has_finished_onboarding: z.boolean(),
  is_business_locked: z.boolean(),
  is_manager: z.boolean(),
  user_permissions: z.array(z.string()),
  payroll_currency: z.string().length(3).nullable(),
  has_accepted_cardholder_agreement: z.boolean(),
  impersonator: z.object({ email: z.email() }).nullable(),
  acting_user_is_in_reporting_chain: z.boolean(),
  first_name: z.string(),
  last_name: z.string(),
  external_firm_role: externalFirmRoleSchema.nullable(),
  email: z.email(),
  manager_id: uuid.nullable(),
  department_id: uuid.nullable(),
  location_id: uuid.nullable(),
  status: z.enum(['ACTIVE', 'INVITED', 'INVITE_EXPIRED', 'SUSPENDED']),
});
export type SpendUser = z.infer<typeof spendUserSchema>;

/** The mirrored shape of a user (what the change feed carries). */
export const userRowSchema = spendUserSchema
  .pick({
    id: true,
    role: true,
    first_name: true,
    last_name: true,
    email: true,
    is_manager: true,
    manager_id: true,
    department_id: true,
    location_id: true,
    status: true,
  })
  // Whether a claim may be paid through payroll (§6); absent from rows mirrored before it was sent.
  .extend({ payroll_currency: spendUserSchema.shape.payroll_currency.default(null) })
  .extend(mirroredFields);
export type UserRow = z.infer<typeof userRowSchema>;

/** Users are directory data: everyone in the business sees every user's mirrored row. */
/** Table `spend_users`: the directory fields every member mirrors. */
export const userEntity = defineReference({
  name: 'users', schema: userRowSchema, visibility: 'people', searchText: ['first_name', 'last_name', 'email'],
});

export const fullName = (u: { first_name: string; last_name: string }) =>
  `${u.first_name} ${u.last_name}`.trim();
