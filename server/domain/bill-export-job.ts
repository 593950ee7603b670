import { billQuerySchema } from '../../schema/api/calls-bill-query.ts';
import { mayManageBills } from '../../schema/bill-rules.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { ActingUser } from '../core/actor.ts';
import type { Queryable } from '../db/db.ts';
import { billQueryPage } from './bill-query.ts';
import { exportColumnsOf } from './export-settings.ts';
import { businessNames, csvStream, type PageReader } from './reporting/export.ts';

/**
 * Issue 32, the `bill_export` job (§7 POST /bill-pay/export-as-file): the Bills query's rows as
 * the CSV every bill export writes (reporting/export.ts `csvStream`, the caller's saved columns,
 * names from the business's tables), read in keyset pages of EXPORT_PAGE in the query's sort,
 * reporting progress per page. It runs as the system, for its requester: someone who no longer
 * manages bills when it runs gets no file (the job fails at once with the reason).
 */
const EXPORT_PAGE = 1000;

type Progress = (percent: number, text: string) => Promise<void>;
type File = { bytes: Uint8Array; contentType: string; name: string };
export type BillExportJob = { business_id: string; requested_by: string; params: Record<string, unknown> };

async function requester(db: Queryable, job: BillExportJob): Promise<ActingUser | null> {
  const [user] = await db.query<ActingUser>(
    `SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text
       FROM spend_users WHERE id = $1 AND business_id = $2`,
    [job.requested_by, job.business_id],
  );
  return user ?? null;
}

export async function runBillExportJob(
  db: Queryable, job: BillExportJob, report: Progress, now: Date, final: (message: string) => Error,
): Promise<File> {
  const query = billQuerySchema.parse(job.params.query);
  const user = await requester(db, job);
  if (!user || !mayManageBills(user)) throw final('Only administrators, bookkeepers and AP clerks can export bills.');
  await report(5, 'Counting bills');
  const businessId = job.business_id;
  const total = (await billQueryPage(db, businessId, query, { pageSize: 0, includeCount: true })).total_count ?? 0;
  const [names, columns] = [await businessNames(db, businessId), await exportColumnsOf<Bill>(db, user, 'bills')];
  let written = 0;
  const pages: PageReader<'bills'> = async (start) => {
    const page = await billQueryPage(db, businessId, query, { pageSize: EXPORT_PAGE, start, includeCount: false });
    written += page.data.length;
    await report(10 + (85 * written) / Math.max(total, 1), `Writing bills: ${written.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
    return { data: page.data, next: page.page.next };
  };
  const bytes = new Uint8Array(await new Response(csvStream('bills', pages, names, columns)).arrayBuffer());
  return { bytes, contentType: 'text/csv; charset=utf-8', name: `bills-${now.toISOString().slice(0, 10)}.csv` };
}
