import { z } from 'zod';

/**
 * Issue 32, the HRIS connection (docs/design/issue-32-hris.md): the people file's format, the
 * connection's settings and the diff an import shows before it is applied. Shared by the server
 * (parse, diff, apply) and the settings page (the review screen), so both name things alike.
 */

export const HRIS_PROVIDERS = ['BambooHR', 'Rippling', 'Workday', 'Gusto', 'HiBob', 'Personio', 'CSV'] as const;
export const HRIS_MODES = ['upload', 'drop'] as const;
/** Roles a new hire may be invited with: never an owner or an admin (access that wide is given by a person). */
export const HRIS_DEFAULT_ROLES = ['BUSINESS_USER', 'BUSINESS_BOOKKEEPER', 'AUDITOR'] as const;
export const MAX_HRIS_ROWS = 5000;
export const MAX_HRIS_FILE_BYTES = 5 * 1024 * 1024;

/** The file's columns; a header names them in any order. */
export const HRIS_COLUMNS = [
  'employee_id', 'email', 'first_name', 'last_name', 'title', 'department', 'location',
  'manager_email', 'manager_employee_id', 'status', 'start_date', 'end_date',
] as const;
export type HrisColumn = (typeof HRIS_COLUMNS)[number];
export const HRIS_REQUIRED_COLUMNS: readonly HrisColumn[] = ['employee_id', 'email', 'first_name', 'last_name', 'status'];

/**
 * The header names HR systems export for each column (compared case-, space-, dash- and
 * underscore-blind). BambooHR says "Employee #", "Work Email", "Job Title", "Supervisor Email";
 * Rippling and Workday say "Worker ID", "Manager Email", "Employment Status", "Hire Date".
 */
export const HRIS_COLUMN_ALIASES: Record<HrisColumn, readonly string[]> = {
  employee_id: ['employee_id', 'employee id', 'employee number', 'employee #', 'employee_number', 'worker id', 'id'],
  email: ['email', 'work email', 'work_email', 'email address', 'business email'],
  first_name: ['first_name', 'first name', 'given name', 'preferred first name'],
  last_name: ['last_name', 'last name', 'family name', 'surname'],
  title: ['title', 'job title', 'job_title', 'position'],
  department: ['department', 'team'],
  location: ['location', 'office', 'work location'],
  manager_email: ['manager_email', 'manager email', 'supervisor email', 'reports to email'],
  manager_employee_id: ['manager_employee_id', 'manager employee id', 'manager id', 'supervisor id', 'supervisor eid', 'reports to id'],
  status: ['status', 'employment status', 'employee status'],
  start_date: ['start_date', 'start date', 'hire date', 'hire_date', 'original hire date'],
  end_date: ['end_date', 'end date', 'termination date', 'termination_date', 'last day'],
};

/** The words a status cell may hold, per what it means. */
export const HRIS_ACTIVE_WORDS = ['active', 'employed', 'on leave', 'leave'] as const;
export const HRIS_TERMINATED_WORDS = ['terminated', 'inactive', 'left', 'former'] as const;

/** One person of a valid file, normalised (email folded, blanks null, dates ISO). */
export const hrisRowSchema = z.object({
  row: z.number().int().positive(),
  employee_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  title: z.string().nullable(),
  department: z.string().nullable(),
  location: z.string().nullable(),
  manager_email: z.string().nullable(),
  manager_employee_id: z.string().nullable(),
  status: z.enum(['active', 'terminated']),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
});
export type HrisRow = z.infer<typeof hrisRowSchema>;

/** A problem of the file: its row (1 = the header) and column, or the whole file (row 0). */
export const hrisRowErrorSchema = z.object({ row: z.number().int().nonnegative(), column: z.string().nullable(), message: z.string() });
export type HrisRowError = z.infer<typeof hrisRowErrorSchema>;

const person = { employee_id: z.string(), email: z.string(), name: z.string() };
export const hrisFieldChangeSchema = z.object({
  field: z.enum(['first_name', 'last_name', 'title', 'department', 'location', 'manager']),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export const hrisDiffSchema = z.object({
  new_hires: z.array(z.object({ ...person, role: z.string(), title: z.string().nullable(), department: z.string().nullable(), location: z.string().nullable(), manager: z.string().nullable() })),
  changes: z.array(z.object({ ...person, user_id: z.uuid(), fields: z.array(hrisFieldChangeSchema) })),
  leavers: z.array(z.object({ ...person, user_id: z.uuid(), end_date: z.string().nullable() })),
  departments_to_create: z.array(z.string()),
  locations_to_create: z.array(z.string()),
  /** People the file names that this import leaves alone, and why (an owner, the person applying, …). */
  skipped: z.array(z.object({ ...person, reason: z.string() })),
  unchanged: z.number().int().nonnegative(),
});
export type HrisDiff = z.infer<typeof hrisDiffSchema>;

export const hrisDiffCounts = (d: HrisDiff) => ({
  new_hires: d.new_hires.length, changes: d.changes.length, leavers: d.leavers.length,
  departments: d.departments_to_create.length, locations: d.locations_to_create.length,
});
export const hrisDiffIsEmpty = (d: HrisDiff) => Object.values(hrisDiffCounts(d)).every((n) => n === 0);
