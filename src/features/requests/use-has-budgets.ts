import { useReferenceAny } from '../../lib/use-reference-any.ts';

const OPEN = { archived: false } as const;

/**
 * Whether the viewer sees at least one open (not archived) budget (reference data, offline too):
 * the nav shows Budgets to them then, as it does to everyone who may create one. The shell asks
 * on every reference change: a count in the worker, never the whole reference data.
 */
export const useHasBudgets = (): boolean => useReferenceAny('spend_allocations', OPEN);
