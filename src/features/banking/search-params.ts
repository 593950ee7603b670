import { z } from 'zod';
import { parseEachParam } from '../../lib/search-params.ts';

/** /treasury/statements' URL state: the bank account whose statements show. */
export const statementsSearchSchema = z.object({ account: z.uuid().optional() });
export type StatementsSearch = z.infer<typeof statementsSearchSchema>;
export const parseStatementsSearch = (raw: Record<string, unknown>): StatementsSearch => parseEachParam(statementsSearchSchema, raw);
