import { ENTITIES, QUERIED_COLLECTIONS, type MirroredCollection, type QueriedCollection, type RowOf } from '../../schema/collections.ts';
import type { RowView } from '../contracts/views.ts';
import { occurredDesc } from '../../schema/mirror.ts';
import type { OutboxIndex } from '../outbox-index.ts';
import type { OwnCollection, MirrorDoc } from '../db.ts';
import { creator, rebaser, type RowShape } from '../rebase.ts';
import type { CommandActor } from '../../schema/commands/define-command.ts';
import type { ReferenceCache } from '../reference-cache.ts';
import { approvalEntity } from '../../schema/entities/approval.ts';
import { billEntity } from '../../schema/entities/bill.ts';
import { cardEntity } from '../../schema/entities/card.ts';
import { cardRequestEntity } from '../../schema/entities/card-request.ts';
import { reimbursementEntity } from '../../schema/entities/reimbursement.ts';
import { tripEntity } from '../../schema/entities/trip.ts';
import { spendRequestEntity } from '../../schema/entities/spend-request.ts';
import { notificationEntity } from '../../schema/entities/notification.ts';
import { engineApprovals, serverApprovals, storedApprovals } from './generated/approvals.ts';
import { engineBills, serverBills, storedBills } from './generated/bills.ts';
import { engineCardRequests, serverCardRequests, storedCardRequests } from './generated/card_requests.ts';
import { engineCards, serverCards, storedCards } from './generated/cards.ts';
import { engineReimbursements, serverReimbursements, storedReimbursements } from './generated/reimbursements.ts';
import { engineTrips, serverTrips, storedTrips } from './generated/trips.ts';
import { engineSpendRequests, serverSpendRequests, storedSpendRequests } from './generated/spend_requests.ts';
import { engineNotifications, serverNotifications, storedNotifications } from './generated/notifications.ts';
import { specCollection } from './spec-collection.ts';
import { transactionCollection } from './transactions.ts';
import type { EngineOptions, WorkerCollection } from './worker-collection.ts';

/**
 * The worker's side of every queried collection, one entry per QueriedCollection: a queried
 * collection without one does not compile. Reference collections need none (reference-cache.ts
 * keeps them from their definitions). Transactions have a hand-tuned engine (typed sort keys,
 * the server's search text: transactions.ts); every other collection is built from its
 * definition alone (spec-collection.ts) — a claim list, the reviewer's inbox (`status=PENDING`,
 * `exclude_user_ids=[me]`, newest first), a business's cards, card requests, bills and trips
 * number in the hundreds or thousands, so comparator sort keys do.
 */
// A registry holds collections with different row types: each entry is checked against its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyWorkerCollection<C extends QueriedCollection> = WorkerCollection<C, any, any>;
export const WORKER_COLLECTIONS = {
  transactions: transactionCollection,
  reimbursements: specCollection('reimbursements', reimbursementEntity, { server: serverReimbursements, engine: engineReimbursements, stored: storedReimbursements }),
  approvals: specCollection('approvals', approvalEntity, { server: serverApprovals, engine: engineApprovals, stored: storedApprovals }),
  cards: specCollection('cards', cardEntity, { server: serverCards, engine: engineCards, stored: storedCards }),
  card_requests: specCollection('card_requests', cardRequestEntity, { server: serverCardRequests, engine: engineCardRequests, stored: storedCardRequests }),
  bills: specCollection('bills', billEntity, { server: serverBills, engine: engineBills, stored: storedBills }),
  trips: specCollection('trips', tripEntity, { server: serverTrips, engine: engineTrips, stored: storedTrips }),
  spend_requests: specCollection('spend_requests', spendRequestEntity, {
    server: serverSpendRequests, engine: engineSpendRequests, stored: storedSpendRequests,
  }),
  notifications: specCollection('notifications', notificationEntity, {
    server: serverNotifications, engine: engineNotifications, stored: storedNotifications,
  }),
} as const satisfies { [C in QueriedCollection]: AnyWorkerCollection<C> };

type Registry = typeof WORKER_COLLECTIONS;
export type EngineOf<C extends QueriedCollection> = ReturnType<Registry[C]['engine']>;
export type EngineRowOf<C extends QueriedCollection> = ReturnType<Registry[C]['rows']['engine']>;
export type CollectionEngines = { readonly [C in QueriedCollection]: EngineOf<C> };
export type Rebasers = { readonly [C in QueriedCollection]: (current: Parameters<Registry[C]['rows']['server']>[0]) => EngineRowOf<C> };

/** One engine per queried collection, over the mirror's reference data. */
export function createEngines(refs: ReferenceCache, options: EngineOptions = {}): CollectionEngines {
  return Object.fromEntries(QUERIED_COLLECTIONS.map((c) => [c, WORKER_COLLECTIONS[c].engine(refs, options)])) as unknown as CollectionEngines;
}

const shapeOf = (c: QueriedCollection) => WORKER_COLLECTIONS[c].rows as unknown as RowShape<{ id: string }, { id: string }, unknown>;

/** What a row of each queried collection shows (commands applied), built once per mirror. */
export function createRebasers(index: OutboxIndex): Rebasers {
  return Object.fromEntries(QUERIED_COLLECTIONS.map((c) => [c, rebaser(index, shapeOf(c), c)])) as unknown as Rebasers;
}

export type Creators = { readonly [C in QueriedCollection]: (id: string) => EngineRowOf<C> | undefined };

/** Rows a pending command creates (no server version yet), per queried collection (rebase.ts `creator`). */
export function createCreators(index: OutboxIndex, actor: () => CommandActor): Creators {
  return Object.fromEntries(QUERIED_COLLECTIONS.map((c) => [c, creator(index, shapeOf(c), c, actor)])) as unknown as Creators;
}

export type Viewers = { readonly [C in QueriedCollection]: (row: { id: string }) => RowView<C> };

/**
 * Rows as the UI sees them: the server's fields (worker-only ones dropped) and the outbox marks.
 * A refusal that is moot on the row (OutboxIndex `isMoot`: e.g. a pay-now refused because the
 * bill was paid elsewhere) is not marked failed, and `onMoot` gets its id to discard it.
 */
export function createViewers(index: OutboxIndex, onMoot?: (ids: string[]) => void): Viewers {
  const viewer = <C extends QueriedCollection>(c: C) => {
    // The registry is indexed by a generic key: TypeScript cannot tie the entry's row types to C.
    const server = WORKER_COLLECTIONS[c].rows.server as unknown as (row: { id: string }) => RowOf<C> & { id: string };
    return (row: { id: string }) => {
      const shown = server(row);
      if (onMoot) {
        const moot = index.mootOn(row, c);
        if (moot.length) onMoot(moot);
      }
      return { ...shown, ...index.marks(shown.id, row, c) } as RowView<C>;
    };
  };
  return Object.fromEntries(QUERIED_COLLECTIONS.map((c) => [c, viewer(c)])) as unknown as Viewers;
}

const isQueried = (c: string): c is QueriedCollection => (QUERIED_COLLECTIONS as readonly string[]).includes(c);

/**
 * How a wire row of an own collection is stored: the queried collection's shaper, else the row
 * without `deleted` (MIRROR_OMITTED_FIELDS) plus the negated time its definition declares.
 */
export function storedShape(collection: OwnCollection): (row: Record<string, unknown>) => MirrorDoc {
  if (isQueried(collection)) return WORKER_COLLECTIONS[collection].stored as unknown as (row: Record<string, unknown>) => MirrorDoc;
  const negated = (ENTITIES[collection as MirroredCollection].mirror as { negatedTime?: { field: string; of: string } }).negatedTime;
  return (row) => {
    const { deleted, ...doc } = row;
    void deleted;
    if (negated) doc[negated.field] = occurredDesc(doc[negated.of] as string);
    return doc as MirrorDoc;
  };
}
