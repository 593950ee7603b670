/** Issue 31: the audit-log read (schema/api/calls-audit-log.ts), admins of the business only. */
import { CATALOGUE } from '../../schema/api/calls.ts';
import { listAuditLog, type AuditLogRow } from '../../schema/api/calls-audit-log.ts';
import { isAdmin } from '../../schema/roles.ts';
import { firmNames } from '../auth/surfaces/firm.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

type Row = {
  id: string; at: string; call_id: string; method: string; status: number; spend_user_id: string | null;
  first_name: string | null; last_name: string | null; email: string | null; external_firm_id: string | null;
  impersonator_email: string | null;
};

/** "Jane Roe", or the sign-in email when the person has no name; a firm user's with its firm: "Jane Roe (Acme CPAs)". */
export function auditActorName(row: Pick<Row, 'first_name' | 'last_name' | 'email'>, firm: string | null): string {
  const name = [row.first_name, row.last_name].filter((p) => p && p.trim() !== '').join(' ').trim() || row.email || 'Someone';
  return firm ? `${name} (${firm})` : name;
}

/**
 * A row names its call's path as the catalogue declares it (`/v1/auth/bills/:bill_uuid`), never
 * the path requested: a refused request may carry ids of another business, which this business's
 * admins must not read back from their own log (tenant isolation).
 */
const PATHS = new Map<string, string>(CATALOGUE.map((c) => [c.id, c.path]));

export const auditLogHandlers = {
  [listAuditLog.id]: async (ctx) => {
    const actor = actorOf(ctx);
    if (!isAdmin(actor.user)) throw new ApiError('FORBIDDEN_7003');
    const q = ctx.input.query;
    const params: unknown[] = [actor.businessId];
    let filter = 'a.business_id = $1';
    if (q.actor) filter += ` AND a.spend_user_id = $${params.push(q.actor)}`;
    if (q.call) filter += ` AND a.call_id = $${params.push(q.call)}`;
    const total = q.include_count
      ? Number((await ctx.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM audit_log a WHERE ${filter}`, params))[0]?.n ?? 0)
      : undefined;
    const pageParams = [...params];
    const cursor = q.start ? ` AND a.id < $${pageParams.push(q.start)}::bigint` : '';
    // Newest first by id (a bigserial: insertion order), the keyset the cursor continues from.
    const rows = await ctx.db.query<Row>(
      `SELECT a.id::text, ll_iso(a.at) AS at, a.call_id, a.method, a.status, a.spend_user_id::text, u.first_name, u.last_name,
              coalesce(u.email, i.email) AS email, a.external_firm_id::text, a.impersonator_email
         FROM audit_log a
         LEFT JOIN spend_users u ON u.id = a.spend_user_id AND u.business_id = a.business_id
         LEFT JOIN identities i ON i.id = a.identity_id
        WHERE ${filter}${cursor} ORDER BY a.id DESC LIMIT $${pageParams.push(q.page_size + 1)}`,
      pageParams,
    );
    const page = rows.slice(0, q.page_size);
    const firms = await firmNames(ctx.db, [...new Set(page.flatMap((r) => (r.external_firm_id ? [r.external_firm_id] : [])))]);
    const data: AuditLogRow[] = page.map((r) => ({
      id: r.id, at: r.at, call_id: r.call_id, method: r.method, path: PATHS.get(r.call_id) ?? '', status: r.status,
      actor: {
        spend_user_id: r.spend_user_id, external_firm_id: r.external_firm_id,
        name: auditActorName(r, r.external_firm_id ? (firms.get(r.external_firm_id) ?? null) : null),
      },
      impersonator_email: r.impersonator_email,
    }));
    const next = rows.length > q.page_size && page.length > 0 ? page[page.length - 1]!.id : null;
    return ok({ data, page: { next }, ...(total !== undefined && { total_count: total }) });
  },
} satisfies DomainHandlers;
