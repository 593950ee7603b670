import type { Surface, SurfaceClaimOf } from '../../../schema/api/scopes.ts';
import type { ScopeChoice } from '../../../schema/entities/scope-choice.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * What a surface (issue 31) tells authentication and the scope picker about an identity: whether
 * it still holds the surface a token names (read on every request, so removing a firm user or a
 * vendor admin ends its tokens at once), and every such surface it holds.
 */
export type SurfaceMembership<K extends Exclude<Surface, 'BUSINESS'>> = {
  holds(db: Queryable, identityId: string, claim: SurfaceClaimOf<K>): Promise<boolean>;
  choices(db: Queryable, identityId: string): Promise<ScopeChoice[]>;
};
