import type { Hono } from 'hono';
import type { AppDeps } from '../core/deps.ts';
import { mailOrigin } from '../http/mail-links.ts';
import { scimJson } from './errors.ts';
import { idOf, listAnswer, scimBase, scimHandler, type ScimEnv } from './kit.ts';
import { applyPatch, readPatchOps } from './patch.ts';
import { checkIfMatch, inScimWrite, projector, readJson } from './request.ts';
import { applyUserState, createScimUser, deleteScimUser, readUserState } from './user-writes.ts';
import { findUserRow, listUserRows, userResource, weakEtag } from './users.ts';

/** /Users: list with filter and paging, read, create, replace, patch, delete (server/scim/user-writes.ts). */
export function registerUserRoutes(scim: Hono<ScimEnv>, deps: AppDeps): void {
  const one = async (c: Parameters<Parameters<typeof scimHandler>[0]>[0], id: string, status = 200) => {
    const base = scimBase(c, deps);
    const resource = userResource(await findUserRow(deps.db, c.get('caller').businessId, id), base);
    const meta = resource.meta as { version: string; location: string };
    return scimJson(c, projector(c)(resource), status, { etag: meta.version, ...(status === 201 && { location: meta.location }) });
  };

  scim.get('/Users', scimHandler((c) => listAnswer(c, 'User', async () => {
    const base = scimBase(c, deps);
    return (await listUserRows(deps.db, c.get('caller').businessId)).map((r) => userResource(r, base));
  })));
  scim.get('/Users/:id', scimHandler((c) => one(c, idOf(c))));

  scim.post('/Users', scimHandler(async (c) => {
    const caller = c.get('caller');
    const state = readUserState(await readJson(c));
    const origin = mailOrigin(deps.sso.publicUrl, { url: c.req.url });
    const id = await inScimWrite(deps, caller, (tx) => createScimUser(tx, deps, caller, state, origin));
    return one(c, id, 201);
  }));

  scim.put('/Users/:id', scimHandler(async (c) => {
    const caller = c.get('caller');
    const state = readUserState(await readJson(c));
    await inScimWrite(deps, caller, async (tx) => {
      const row = await findUserRow(tx, caller.businessId, idOf(c), true);
      checkIfMatch(c, weakEtag(row.change_seq));
      await applyUserState(tx, caller, row, state);
    });
    return one(c, idOf(c));
  }));

  scim.patch('/Users/:id', scimHandler(async (c) => {
    const caller = c.get('caller');
    const ops = readPatchOps(await readJson(c));
    const base = scimBase(c, deps);
    await inScimWrite(deps, caller, async (tx) => {
      const row = await findUserRow(tx, caller.businessId, idOf(c), true);
      const resource = userResource(row, base);
      checkIfMatch(c, weakEtag(row.change_seq));
      await applyUserState(tx, caller, row, readUserState(applyPatch('User', resource, ops)));
    });
    return one(c, idOf(c));
  }));

  scim.delete('/Users/:id', scimHandler(async (c) => {
    const caller = c.get('caller');
    await inScimWrite(deps, caller, async (tx) => {
      const row = await findUserRow(tx, caller.businessId, idOf(c), true);
      checkIfMatch(c, weakEtag(row.change_seq));
      await deleteScimUser(tx, caller, row.id);
    });
    return new Response(null, { status: 204 });
  }));
}
