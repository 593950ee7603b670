import type { Department } from '../schema/entities/department.ts';
import type { Location } from '../schema/entities/location.ts';
import type { GlAccount } from '../schema/entities/gl-account.ts';
import type { TrackingCategory } from '../schema/entities/tracking-category.ts';
import { fullName, type UserRow } from '../schema/entities/spend-user.ts';
import type { Card } from '../schema/entities/card.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import type { ReferenceData } from './api.ts';

/**
 * Reference data (users, departments, locations, GL accounts, tracking categories, cards) in
 * memory: small, read on every search-text build and by the UI's pickers. `textOf` is the
 * searchable text of a transaction: merchant, memo, cardholder and coding names.
 */
export type ReferenceKind = keyof ReferenceData;
type Row<K extends ReferenceKind> = ReferenceData[K][number];

export const REFERENCE_KINDS = ['users', 'departments', 'locations', 'gl_accounts', 'tracking_categories', 'cards'] as const satisfies readonly ReferenceKind[];

export class ReferenceCache {
  private maps: { [K in ReferenceKind]: Map<string, Row<K>> } = {
    users: new Map<string, UserRow>(),
    departments: new Map<string, Department>(),
    locations: new Map<string, Location>(),
    gl_accounts: new Map<string, GlAccount>(),
    tracking_categories: new Map<string, TrackingCategory>(),
    cards: new Map<string, Card>(),
  };
  /** `${category id}:${option id}` → "category option" (what the server's search text holds). */
  private optionNames = new Map<string, string>();

  /**
   * Applies upserts and removals; returns the ids whose displayed name may have changed (so
   * the transactions referring to them are re-indexed for search).
   */
  apply<K extends ReferenceKind>(kind: K, upserts: readonly Row<K>[], removals: readonly string[]): string[] {
    const map = this.maps[kind] as Map<string, Row<K>>;
    const changed: string[] = [];
    for (const row of upserts) {
      const old = map.get(row.id);
      map.set(row.id, row);
      if (!old || nameOf(kind, old) !== nameOf(kind, row)) changed.push(row.id);
    }
    for (const id of removals) if (map.delete(id)) changed.push(id);
    if (kind === 'tracking_categories') {
      this.optionNames.clear();
      for (const cat of this.maps.tracking_categories.values()) {
        for (const o of cat.options) this.optionNames.set(`${cat.id}:${o.id}`, `${cat.name} ${o.name}`);
      }
      // Option names live inside categories: treat every option id of a changed category as changed.
      for (const id of [...changed]) {
        const cat = this.maps.tracking_categories.get(id);
        if (cat) changed.push(...cat.options.map((o) => o.id));
      }
    }
    return changed;
  }

  snapshot(): ReferenceData {
    return {
      users: [...this.maps.users.values()],
      departments: [...this.maps.departments.values()],
      locations: [...this.maps.locations.values()],
      gl_accounts: [...this.maps.gl_accounts.values()],
      tracking_categories: [...this.maps.tracking_categories.values()],
      cards: [...this.maps.cards.values()],
    };
  }

  /**
   * The words a transaction is found by, the same as the server's search text
   * (ll_transaction_search_text, migration 001): merchant, memo, cardholder name, GL code and
   * name, department, location, and each tracking category with its option.
   */
  textOf = (t: Pick<Transaction, 'merchant_name' | 'memo' | 'user_id' | 'gl_account_id' | 'department_id' | 'location_id' | 'tracking'>): string => {
    const parts: string[] = [t.merchant_name];
    if (t.memo) parts.push(t.memo);
    const user = this.maps.users.get(t.user_id);
    if (user) parts.push(fullName(user));
    const gl = t.gl_account_id ? this.maps.gl_accounts.get(t.gl_account_id) : undefined;
    if (gl) parts.push(gl.code, gl.name);
    if (t.department_id) parts.push(this.maps.departments.get(t.department_id)?.name ?? '');
    if (t.location_id) parts.push(this.maps.locations.get(t.location_id)?.name ?? '');
    for (const [category, option] of Object.entries(t.tracking)) parts.push(this.optionNames.get(`${category}:${option}`) ?? '');
    return parts.join(' ');
  };

  /** True when the transaction shows any of these referenced ids (for re-indexing). */
  static refersTo(t: Transaction, ids: ReadonlySet<string>): boolean {
    if (ids.has(t.user_id)) return true;
    if (t.gl_account_id && ids.has(t.gl_account_id)) return true;
    if (t.department_id && ids.has(t.department_id)) return true;
    if (t.location_id && ids.has(t.location_id)) return true;
    for (const [category, option] of Object.entries(t.tracking)) if (ids.has(option) || ids.has(category)) return true;
    return false;
  }
}

function nameOf(kind: ReferenceKind, row: Row<ReferenceKind>): string {
  if (kind === 'users') return fullName(row as UserRow);
  if (kind === 'cards') return (row as Card).display_name;
  if (kind === 'gl_accounts') return `${(row as GlAccount).code} ${(row as GlAccount).name}`;
  if (kind === 'tracking_categories') {
    const cat = row as TrackingCategory;
    return `${cat.name}|${cat.options.map((o) => `${o.id}:${o.name}`).join('|')}`;
  }
  return (row as { name: string }).name;
}
