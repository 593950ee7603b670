import type { QueriedCollection, RowOf } from '../../schema/collections.ts';
import type { MirroredRow } from '../../schema/mirror.ts';

/**
 * What the generated shapers (generated/<collection>.ts) take: a row of the collection as the worker
 * meets it (wire, stored, or engine row), where fields with a `missing` column may be absent.
 */
export type ShaperIn<C extends QueriedCollection> = { readonly [K in keyof RowOf<C>]?: RowOf<C>[K] } & { readonly id: string };

/** The engine's row: the row as shown, its mirror-only fields, and the confirmed server row underneath. */
export type EngineRowFor<C extends QueriedCollection> = RowOf<C> & MirroredRow<C> & { server: RowOf<C> | undefined };
