import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { currentIdentity, signIn, signOut } from '../../schema/api/calls.ts';
import { defaultSpendUser } from '../../schema/roles.ts';
import { verifyAgainstDummy, verifyPassword } from '../auth/password.ts';
import { signIdToken } from '../auth/tokens.ts';
import type { Queryable } from '../db/db.ts';
import { SPEND_USER_DOC_SQL } from '../feed/docs.ts';
import type { AppDeps } from '../http/deps.ts';
import { ApiError } from '../http/errors.ts';
import { actorOf, ok, register } from '../http/register.ts';

type IdentityRow = { id: string; email: string; password_hash: string; ofac_status: string | null };
type SpendUserDoc = {
  id: string; business_id: string; role: string; is_manager: boolean; user_permissions: string[];
  external_firm: { uuid: string; id: string } | null; has_finished_onboarding: boolean;
  is_business_locked: boolean; has_accepted_cardholder_agreement: boolean; status: string;
};

async function spendUsersOf(db: Queryable, identityId: string): Promise<SpendUserDoc[]> {
  const rows = await db.query<{ doc: SpendUserDoc }>(
    `SELECT ${SPEND_USER_DOC_SQL} AS doc FROM spend_users r WHERE r.identity_id = $1 AND NOT r.deleted ORDER BY r.business_id`,
    [identityId],
  );
  return rows.map((r) => r.doc);
}

export function registerAuthRoutes(app: Hono, deps: AppDeps): void {
  register(app, deps, signIn, async (ctx) => {
    const { email, password } = ctx.input.body;
    const rows = await ctx.db.query<IdentityRow>('SELECT * FROM identities WHERE lower(email) = lower($1)', [email]);
    const identity = rows[0];
    // Unknown emails burn the same scrypt work, so timing does not reveal which accounts exist.
    const valid = identity ? await verifyPassword(password, identity.password_hash) : await verifyAgainstDummy(password);
    if (!identity || !valid) throw new ApiError('AUTH_7001');
    const user = defaultSpendUser(
      (await spendUsersOf(ctx.db, identity.id)).filter((u) => u.status === 'ACTIVE'),
      null,
    );
    if (!user) throw new ApiError('4014');
    const sessionId = randomUUID();
    await ctx.db.query('INSERT INTO sessions (id, identity_id) VALUES ($1, $2)', [sessionId, identity.id]);
    const idToken = await signIdToken(
      await deps.tokenKey(),
      {
        sub: identity.id,
        ramp_user_uuid: user.id,
        ramp_access_scopes: ['default'],
        // MFA arrives with a later issue; until then password sign-in is complete on its own.
        ramp_mfa_required: false,
        ramp_mfa_authed: false,
        ramp_session_id: sessionId,
        sign_in_provider: 'password',
        business_id: user.business_id,
      },
      Math.floor(deps.now() / 1000),
    );
    return ok({ id_token: idToken, mfa_required: false });
  });

  register(app, deps, signOut, async (ctx) => {
    const actor = actorOf(ctx);
    await ctx.db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [actor.sessionId]);
    return ok({ ok: true });
  });

  register(app, deps, currentIdentity, async (ctx) => {
    const actor = actorOf(ctx);
    const [identity] = await ctx.db.query<IdentityRow>('SELECT * FROM identities WHERE id = $1', [actor.identityId]);
    const [business] = await ctx.db.query(
      `SELECT id, name, currency, status, ll_iso(created_at) AS created_at FROM businesses WHERE id = $1`,
      [actor.businessId],
    );
    const spendUsers = await spendUsersOf(ctx.db, actor.identityId);
    const impersonator = actor.claims.impersonator ?? null;
    const user = spendUsers.find((u) => u.id === actor.user.id);
    if (!identity || !business || !user) throw new ApiError('4014');
    return ok({
      identity: {
        id: identity.id,
        email: identity.email,
        spend_users: spendUsers,
        external_firm_user: null,
        external_firm_applicant: null,
        financing_application_users: [],
        identity_ofac_status: identity.ofac_status,
      },
      user: { ...user, impersonator },
      business,
    });
  });
}
