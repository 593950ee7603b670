import type { Hono } from 'hono';
import type { AppDeps } from '../core/deps.ts';
import { scimJson } from './errors.ts';
import { applyGroupState, createGroup, deleteGroup, findGroupRow, groupResource, groupVersion, listGroupRows, readGroupState } from './groups.ts';
import { idOf, listAnswer, scimBase, scimHandler, type ScimEnv } from './kit.ts';
import { applyPatch, readPatchOps } from './patch.ts';
import { checkIfMatch, inScimWrite, projector, readJson } from './request.ts';

/** /Groups (departments): list with filter and paging, read, create, replace, patch (members), delete. */
export function registerGroupRoutes(scim: Hono<ScimEnv>, deps: AppDeps): void {
  const one = async (c: Parameters<Parameters<typeof scimHandler>[0]>[0], id: string, status = 200) => {
    const row = await findGroupRow(deps.db, c.get('caller').businessId, id);
    const resource = groupResource(row, scimBase(c, deps));
    const meta = resource.meta as { version: string; location: string };
    return scimJson(c, projector(c)(resource), status, { etag: meta.version, ...(status === 201 && { location: meta.location }) });
  };

  scim.get('/Groups', scimHandler((c) => listAnswer(c, 'Group', async () => {
    const base = scimBase(c, deps);
    return (await listGroupRows(deps.db, c.get('caller').businessId)).map((r) => groupResource(r, base));
  })));
  scim.get('/Groups/:id', scimHandler((c) => one(c, idOf(c))));

  scim.post('/Groups', scimHandler(async (c) => {
    const caller = c.get('caller');
    const state = readGroupState(await readJson(c));
    const id = await inScimWrite(deps, caller, (tx) => createGroup(tx, caller, state));
    return one(c, id, 201);
  }));

  scim.put('/Groups/:id', scimHandler(async (c) => {
    const caller = c.get('caller');
    const state = readGroupState(await readJson(c));
    await inScimWrite(deps, caller, async (tx) => {
      const row = await findGroupRow(tx, caller.businessId, idOf(c));
      checkIfMatch(c, groupVersion(row));
      await applyGroupState(tx, caller, row, state);
    });
    return one(c, idOf(c));
  }));

  scim.patch('/Groups/:id', scimHandler(async (c) => {
    const caller = c.get('caller');
    const ops = readPatchOps(await readJson(c));
    const base = scimBase(c, deps);
    await inScimWrite(deps, caller, async (tx) => {
      const row = await findGroupRow(tx, caller.businessId, idOf(c));
      checkIfMatch(c, groupVersion(row));
      await applyGroupState(tx, caller, row, readGroupState(applyPatch('Group', groupResource(row, base), ops)));
    });
    return one(c, idOf(c));
  }));

  scim.delete('/Groups/:id', scimHandler(async (c) => {
    const caller = c.get('caller');
    await inScimWrite(deps, caller, async (tx) => {
      const row = await findGroupRow(tx, caller.businessId, idOf(c));
      checkIfMatch(c, groupVersion(row));
      await deleteGroup(tx, caller, row.id);
    });
    return new Response(null, { status: 204 });
  }));
}
