import type { z } from 'zod';
import { approvalEntity } from './entities/approval.ts';
import { billEntity } from './entities/bill.ts';
import { cardEntity } from './entities/card.ts';
import { cardRequestEntity } from './entities/card-request.ts';
import type { AnyEntityDef } from './entities/define-entity.ts';
import { departmentEntity } from './entities/department.ts';
import { glAccountEntity } from './entities/gl-account.ts';
import { locationEntity } from './entities/location.ts';
import { reimbursementEntity } from './entities/reimbursement.ts';
import { reimbursementRateEntity } from './entities/reimbursement-rate.ts';
import { userEntity } from './entities/spend-user.ts';
import { trackingCategoryEntity } from './entities/tracking-category.ts';
import { transactionEntity } from './entities/transaction.ts';
import { vendorEntity } from './entities/vendor.ts';
import { provisionalBillEntity } from './entities/provisional-bill.ts';
import { savedReportEntity } from './entities/saved-report.ts';
import { dashboardEntity } from './entities/dashboard.ts';
import { mappingRuleEntity } from './entities/mapping-rule.ts';
import { businessEntityEntity } from './entities/business-entity.ts';
import { tripEntity } from './entities/trip.ts';
import { spendRequestEntity } from './entities/spend-request.ts';
import { purchaseOrderEntity } from './entities/purchase-order.ts';
import { spendAllocationEntity } from './entities/spend-allocation.ts';
import { expensePolicyEntity } from './entities/expense-policy.ts';
import { notificationEntity } from './entities/notification.ts';
import { walletAccountEntity } from './entities/wallet-account.ts';
import { walletTransferEntity } from './entities/wallet-transfer.ts';
import { bankAccountEntity } from './entities/bank-account.ts';

/**
 * The mirrored collections, listed once. Everything that differs per collection is in its
 * definition (schema/entities/<name>.ts); every per-collection list of the code base is derived
 * from this one (the feed's names, the mirror's zod and JSON schemas, the worker's lists) and the
 * server keeps one typed entry per name (server/domain/collections.ts). Order is the feed's and the
 * mirror's iteration order.
 */
const DEFINITIONS = [
  transactionEntity,
  userEntity,
  departmentEntity,
  locationEntity,
  glAccountEntity,
  trackingCategoryEntity,
  cardEntity,
  reimbursementEntity,
  approvalEntity,
  reimbursementRateEntity,
  cardRequestEntity,
  vendorEntity,
  billEntity,
  provisionalBillEntity,
  savedReportEntity,
  dashboardEntity,
  mappingRuleEntity,
  businessEntityEntity,
  tripEntity,
  spendRequestEntity,
  purchaseOrderEntity,
  spendAllocationEntity,
  expensePolicyEntity,
  notificationEntity,
  walletAccountEntity,
  walletTransferEntity,
  bankAccountEntity,
] as const satisfies readonly AnyEntityDef[];

type Definitions = typeof DEFINITIONS;
type NamesOf<T extends readonly AnyEntityDef[]> = { readonly [I in keyof T]: T[I]['name'] };

/** The collections the change feed carries, i.e. what a client mirrors. */
export const MIRRORED_COLLECTIONS = DEFINITIONS.map((d) => d.name) as unknown as NamesOf<Definitions>;
export type MirroredCollection = (typeof MIRRORED_COLLECTIONS)[number];

export type EntityOf<C extends MirroredCollection> = Extract<Definitions[number], { name: C }>;
/** A wire row of a collection (what the feed's `doc` parses to). */
export type RowOf<C extends MirroredCollection> = z.output<EntityOf<C>['schema']>;

/** Every definition by collection name. */
export const ENTITIES = Object.fromEntries(DEFINITIONS.map((d) => [d.name, d])) as unknown as {
  readonly [C in MirroredCollection]: EntityOf<C>;
};

/** Collections with a query spec: served by the worker's query engine (filters, sorts, text). */
export type QueriedCollection = {
  [C in MirroredCollection]: EntityOf<C>['query'] extends undefined ? never : C;
}[MirroredCollection];
/** The rest: reference data the worker keeps whole in memory (pickers, names in search text). */
export type ReferenceCollection = Exclude<MirroredCollection, QueriedCollection>;

const isQueried = (c: MirroredCollection): c is QueriedCollection => ENTITIES[c].query !== undefined;
export const QUERIED_COLLECTIONS: readonly QueriedCollection[] = MIRRORED_COLLECTIONS.filter(isQueried);
export const REFERENCE_COLLECTIONS: readonly ReferenceCollection[] = MIRRORED_COLLECTIONS.filter(
  (c): c is ReferenceCollection => !isQueried(c),
);

/** Collections the worker keeps besides the mirrored ones (workers/db.ts). */
export const LOCAL_COLLECTIONS = ['outbox', 'meta'] as const;
/** The free RxDB build refuses to open more collections than this in one JS context. */
export const RXDB_COLLECTION_LIMIT = 13;
