import {
  cancelAsyncJob, createStatement, getAsyncJob, getAsyncJobFile, listAsyncJobs, listEntityEvents, listStatements,
} from '../../schema/api/calls-jobs.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import type { EntityHistory, EventEntityType } from '../../schema/event-history.ts';
import type { AsyncJob } from '../../schema/jobs.ts';
import type { StatementList, StatementRequest } from '../../schema/statements.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const JOB_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** A file answer as a Blob typed by the server's Content-Type. */
function fileOf<C extends CallDef, A extends unknown[]>(def: C, opts: (...args: A) => CallOptions<C>) {
  return custom((_send, port, offline) => async (...args: A): Promise<{ ok: true; file: Blob } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(def, opts(...args)), offline);
    return r.ok ? { ok: true, file: r.data } : r;
  });
}

/** Issue 32: async jobs, statements and event history (schema/api/calls-jobs.ts). Direct calls, online only. */
export const JOB_DOMAIN = onlineDomain(JOB_OFFLINE, {
  /** The signed-in person's jobs of the last week, newest first. */
  asyncJobs: via(listAsyncJobs, () => ({}), (d: { data: AsyncJob[] }) => ({ jobs: d.data })),
  asyncJob: via(getAsyncJob, (job_id: string) => ({ params: { job_id } }), (job: AsyncJob) => ({ job })),
  asyncJobFile: fileOf(getAsyncJobFile, (job_id: string) => ({ params: { job_id } })),
  cancelAsyncJob: via(cancelAsyncJob, (job_id: string) => ({ params: { job_id } }), (job: AsyncJob) => ({ job })),
  /** What a month has (default the last ended one); BILLING_7003 for a month not ended. */
  cardStatements: via(listStatements, (month?: string) => ({ query: month ? { month } : {} }), (list: StatementList) => ({ list })),
  /** Starts the statement's job (202). */
  createCardStatement: via(createStatement, (body: StatementRequest) => ({ body }), (job: AsyncJob) => ({ job })),
  /**
   * One page of an entity's history, newest first, with this device's id (`device_id`): the view
   * says "this device" for the events sent from here (worker-context.ts keeps the id).
   */
  entityHistory: custom((send, port) => async (entity_type: EventEntityType, entity_id: string, start?: string) => {
    const r = await send(listEntityEvents, { params: { entity_type, entity_id }, query: { page_size: 50, ...(start && { start }) } });
    if (!r.ok) return r;
    const history: EntityHistory = r.data;
    return { ok: true as const, history, device_id: (port as OnlinePort & { deviceId?: string | null }).deviceId ?? null };
  }),
});

export type JobApi = OnlineApi<typeof JOB_DOMAIN>;

export const jobWorkerHandlers = (port: OnlinePort): JobApi => bindDomain(port, JOB_DOMAIN);
