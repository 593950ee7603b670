import { AsyncLocalStorage } from 'node:async_hooks';
/** The mail switches sendMail reads (auth/email-otp.ts MailDeps). */
type MailDeps = { devOutbox: boolean; log?: (line: string) => void };

/**
 * What a workflow run reads besides its transaction, carried with the async call chain because
 * the triggers fire deep inside other domains' writes (one hook line each, no new parameters):
 * - `depth`: a run started by another run's action (setting coding raises `transaction.coded`)
 *   sees depth + 1, so the chain stops past MAX_WORKFLOW_DEPTH;
 * - `mail`: the request's mail port (the dev outbox switch and the links' origin), set once per
 *   request by `workflowRequestScope` (http/workflow-scope.ts, mounted in app.ts). Outside a request (seed, scripts) mail goes to the
 *   server log only, as sendMail does with the outbox off.
 */
export type WorkflowScope = { depth: number; mail: MailDeps | null; link: (path: string) => string };

const scope = new AsyncLocalStorage<WorkflowScope>();

const DEFAULT_SCOPE: WorkflowScope = { depth: 1, mail: null, link: (path) => path };

export const currentScope = (): WorkflowScope => scope.getStore() ?? DEFAULT_SCOPE;

export const runInScope = <T>(patch: Partial<WorkflowScope>, fn: () => Promise<T>): Promise<T> =>
  scope.run({ ...currentScope(), ...patch }, fn);
