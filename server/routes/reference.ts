import {
  listDepartments,
  listGlAccounts,
  listLocations,
  listTrackingCategories,
  listUsers,
} from '../../schema/api/calls.ts';
import type { MirroredCollection } from '../../schema/collections.ts';
import { listCollection } from '../domain/reference-lists.ts';
import { actorOf, ok, type DomainHandlers, type Handler } from '../http/handler.ts';

type ReferenceList =
  | typeof listDepartments | typeof listLocations | typeof listGlAccounts
  | typeof listTrackingCategories | typeof listUsers;

/** Every reference list is the same keyset page over its collection. */
const listHandler =
  (collection: MirroredCollection): Handler<ReferenceList> =>
  async (ctx) =>
    ok(await listCollection(ctx.db, actorOf(ctx).user, collection, ctx.input.query));

export const referenceHandlers = {
  [listDepartments.id]: listHandler('departments'),
  [listLocations.id]: listHandler('locations'),
  [listGlAccounts.id]: listHandler('gl_accounts'),
  [listTrackingCategories.id]: listHandler('tracking_categories'),
  [listUsers.id]: listHandler('users'),
} satisfies DomainHandlers;
