import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { workflowToCanvas } from '../../schema/workflow-canvas.ts';
import type { WorkflowExecution } from '../../schema/workflow.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { WORKFLOW_OFFLINE } from './workflows.ts';

const WF = '00000000-0000-4000-8000-0000000000f1';
const canvas = workflowToCanvas({ trigger: 'claim.submitted', rules: [{ id: '00000000-0000-4000-8000-0000000000f2', conditions: [], actions: [{ kind: 'comment', text: 'hi' }] }] });

/** A worker whose server answers the workflow calls with `answer`; `sent` records method and path. */
const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ calls: /^\/v1\/auth\/(workflows|blank-canvas|rules)/, record: methodAndPath, route: (r) => answer(r.method, r.path, r.body) });

describe('workflow calls', () => {
  it('refuses offline before sending anything', async () => {
    const { service, sent } = await worker(() => null);
    await service.setOnline(false);
    expect(await service.workflows()).toEqual(WORKFLOW_OFFLINE);
    expect(await service.saveWorkflowCanvas({ name: 'x', enabled: false, canvas })).toEqual(WORKFLOW_OFFLINE);
    expect(await service.workflowExecutions({ workflow_id: WF })).toEqual(WORKFLOW_OFFLINE);
    expect(sent).toEqual([]);
  });

  it('a loop refusal comes back in the server’s words; the canvas is sent as drawn', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((_m, _p, body) => {
      bodies.push(body);
      return jsonResponse(422, errorBody('WORKFLOW_7001', 'This workflow would trigger itself: Recode → Recode.'));
    });
    const r = await service.saveWorkflowCanvas({ id: WF, name: 'Recode', enabled: true, canvas });
    expect(r).toMatchObject({ ok: false, error: { error_code: 'WORKFLOW_7001', message: 'This workflow would trigger itself: Recode → Recode.' } });
    expect(sent).toEqual(['POST /v1/auth/blank-canvas/workflows']);
    expect(bodies).toEqual([{ id: WF, name: 'Recode', enabled: true, canvas }]);
  });

  it('reads one page of the log with its cursor, filtered by workflow', async () => {
    const { service, sent } = await worker((_m, path) =>
      (path.startsWith('/v1/auth/blank-canvas/executions') ? jsonResponse(200, { data: [] as WorkflowExecution[], page: { next: 'c2' } }) : null));
    expect(await service.workflowExecutions({ workflow_id: WF, start: 'c1' })).toEqual({ ok: true, executions: [], next: 'c2' });
    expect(sent).toEqual(['GET /v1/auth/blank-canvas/executions']);
  });
});
