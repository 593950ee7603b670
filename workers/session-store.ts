import { Dexie, type DexieOptions } from 'dexie';
import { z } from 'zod';
import { spendUserSchema } from '../schema/entities/spend-user.ts';
import { businessSchema } from '../schema/entities/business.ts';
import { roleSchema } from '../schema/roles.ts';
import { OTHER_SURFACE_CLAIMS } from '../schema/api/scopes.ts';
import { scopeChoiceSchema } from '../schema/entities/scope-choice.ts';

/**
 * The signed-in session, kept durably so the app starts offline signed in. It lives in its
 * own tiny IndexedDB database (plain Dexie, no RxDB) because it must be read BEFORE we know
 * which per-user mirror to open, and because RxDB counts every open collection against its
 * 13-collection limit.
 */
const businessSessionSchema = z.object({
  /** Absent in sessions stored before issue 31: the main app. */
  surface: z.object({ kind: z.literal('BUSINESS') }).default({ kind: 'BUSINESS' }),
  user: spendUserSchema,
  business: businessSchema,
  scopes: z.array(z.string()),
  mfa_enabled: z.boolean().optional(),
  /** The identity's businesses, kept so the switcher also renders on an offline start. */
  businesses: z.array(z.object({ id: z.string(), name: z.string(), role: roleSchema, user_id: z.string() })).optional(),
  external_firm_id: z.string().nullable().optional(),
  choices: z.array(scopeChoiceSchema).optional(),
});

/** Issue 31: a session on another surface (no spend user, no business, no mirror). */
const surfaceSessionSchema = z.object({
  surface: z.discriminatedUnion('kind', [...OTHER_SURFACE_CLAIMS]),
  identity_id: z.string(),
  email: z.string().nullable(),
  label: z.string(),
  scopes: z.array(z.string()),
  mfa_enabled: z.boolean().optional(),
  choices: z.array(scopeChoiceSchema).optional(),
});
const sessionInfoSchema = z.union([businessSessionSchema, surfaceSessionSchema]);

const storedSessionSchema = z.object({
  token: z.string().min(1),
  session: sessionInfoSchema,
  /** The mirror's database; null for a surface session (it opens no mirror). */
  db_name: z.string().min(1).nullable(),
  /** Set when the server refused the token (401): data stays readable, sync waits for sign-in. */
  expired: z.boolean().default(false),
  saved_at: z.number(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;
/** A stored session of the main app: the one with a mirror. */
export type StoredBusinessSession = StoredSession & { session: z.infer<typeof businessSessionSchema>; db_name: string };
export const isStoredBusiness = (s: StoredSession | null): s is StoredBusinessSession =>
  s !== null && s.session.surface.kind === 'BUSINESS' && s.db_name !== null;

const DB_NAME = 'ledgerline-session';
const KEY = 'current';
const DEVICE_KEY = 'device_id';

export class SessionStore {
  private readonly db: Dexie;

  constructor(options?: DexieOptions) {
    this.db = new Dexie(DB_NAME, options);
    this.db.version(1).stores({ kv: '' });
  }

  /** The stored session, or null when none (or when what is stored no longer parses). */
  async get(): Promise<StoredSession | null> {
    const raw: unknown = await this.db.table('kv').get(KEY);
    const parsed = storedSessionSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }

  /** What is stored (a session saved before issue 31 has no `surface`: the main app's). */
  async set(session: z.input<typeof storedSessionSchema>): Promise<void> {
    await this.db.table('kv').put(storedSessionSchema.parse(session), KEY);
  }

  /**
   * This browser profile's device id (issue 24: X-Ledgerline-Device), made once and kept: every
   * tab reads the same one (get-or-create in one transaction), sign-out keeps it.
   */
  async deviceId(): Promise<string> {
    const kv = this.db.table('kv');
    return this.db.transaction('rw', kv, async () => {
      const found: unknown = await kv.get(DEVICE_KEY);
      if (typeof found === 'string' && found.length > 0) return found;
      const id = crypto.randomUUID();
      await kv.put(id, DEVICE_KEY);
      return id;
    });
  }

  async clear(): Promise<void> {
    await this.db.table('kv').delete(KEY);
  }

  close(): void {
    this.db.close();
  }
}
