import { z } from 'zod';
import type { TransferStatus } from '../../../schema/entities/wallet-transfer.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/** Written out so the first load (the router imports this file) does not carry the entity; `satisfies` keeps them its. */
const STATUSES = ['PENDING', 'SETTLED', 'CANCELED', 'FAILED'] as const satisfies readonly TransferStatus[];

/** /treasury/transfers' URL state, flat strings (§5): the status filter (absent: all). */
export const transfersSearchSchema = z.object({ status: z.enum(STATUSES).optional() });
export type TransfersSearch = z.infer<typeof transfersSearchSchema>;
export const parseTransfersSearch = (raw: Record<string, unknown>): TransfersSearch => parseEachParam(transfersSearchSchema, raw);
