import { billEntity } from '../../schema/entities/bill.ts';
import { specCollection } from './spec-collection.ts';
import { engineBills, serverBills, storedBills } from './generated/bills.ts';

/**
 * bills in the worker (issue 11): built from the definition alone (spec-engine.ts; row shapers
 * generated from its columns, generated/bills.ts), as card requests are. A business holds
 * thousands of bills, so no typed sort keys; the text is the definition's (invoice number, memo)
 * plus the vendor's name from `refs` (referencedIds).
 */
export const billCollection = specCollection(billEntity, {
  server: serverBills, engine: engineBills, stored: storedBills,
});
