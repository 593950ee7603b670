import { startTransition, useEffect, useMemo, useState } from 'react';
import { fullName } from '../../schema/entities/spend-user.ts';
import { isHiddenSpendUser } from '../../schema/roles.ts';
import type { DataClient, ReferenceData } from '../data-access/types.ts';
import type { SelectOption } from '../components/select-field.tsx';

const EMPTY: ReferenceData = {
  departments: [],
  locations: [],
  gl_accounts: [],
  tracking_categories: [],
  users: [],
  reimbursement_rates: [],
  vendors: [],
  provisional_bills: [],
  saved_reports: [],
  dashboards: [],
  mapping_rules: [],
  entities: [],
  purchase_orders: [],
  spend_allocations: [], expense_policies: [], wallet_accounts: [], wallet_transfers: [], bank_accounts: [],
};
/** Reference data with nothing in it (what a view shows before the worker answers; a test's base). */
export const EMPTY_REFERENCE: ReferenceData = EMPTY;

export interface ReferenceNames {
  user(id: string): string;
  department(id: string | null): string;
  location(id: string | null): string;
  glAccount(id: string | null): string;
  trackingOption(categoryId: string, optionId: string | undefined): string;
  /** A business entity's name (issue 14: entities are mirrored, so this works offline). */
  entity(id: string | null): string;
}

export interface ReferenceView {
  data: ReferenceData;
  names: ReferenceNames;
  options: {
    users: SelectOption[];
    departments: SelectOption[];
    locations: SelectOption[];
    glAccounts: SelectOption[];
  };
}

const byLabel = (a: SelectOption, b: SelectOption) => a.label.localeCompare(b.label);

/** Shared by the features that code rows (transactions, reimbursements). Builds id → name lookups and sorted select options once per reference-data version. */
export function buildReferenceView(data: ReferenceData): ReferenceView {
  const users = new Map(data.users.map((u) => [u.id, fullName(u)]));
  const departments = new Map(data.departments.map((d) => [d.id, d.name]));
  const locations = new Map(data.locations.map((l) => [l.id, l.name]));
  const entities = new Map(data.entities.map((e) => [e.id, e.name]));
  const gl = new Map(data.gl_accounts.map((g) => [g.id, `${g.code} ${g.name}`]));
  const options = new Map(data.tracking_categories.map((c) => [c.id, new Map(c.options.map((o) => [o.id, o.name]))]));
  const names: ReferenceNames = {
    // Unknown ids read as blank: reference rows can arrive a moment after the first page.
    user: (id) => users.get(id) ?? '',
    department: (id) => (id ? (departments.get(id) ?? '') : ''),
    location: (id) => (id ? (locations.get(id) ?? '') : ''),
    glAccount: (id) => (id ? (gl.get(id) ?? '') : ''),
    trackingOption: (cat, opt) => (opt ? (options.get(cat)?.get(opt) ?? '') : ''),
    entity: (id) => (id ? (entities.get(id) ?? '') : ''),
  };
  const toOptions = (m: Map<string, string>) => [...m].map(([value, label]) => ({ value, label })).sort(byLabel);
  return {
    data,
    names,
    options: {
      // A hidden spend user (a firm's advisor in this business, §6) is named where it acted, never offered.
      users: data.users.filter((u) => !isHiddenSpendUser(u)).map((u) => ({ value: u.id, label: fullName(u) })).sort(byLabel),
      departments: toOptions(departments),
      locations: toOptions(locations),
      // Inactive GL accounts stay nameable (old coding) but are not offered for new coding.
      glAccounts: data.gl_accounts
        .filter((g) => g.active)
        .map((g) => ({ value: g.id, label: `${g.code} ${g.name}` }))
        .sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true })),
    },
  };
}

/** Reference data from the mirror, refreshed when the worker reports it changed. */
export function useReferenceData(client: DataClient, version: number): ReferenceView {
  const data = useReferenceAnswer(client, version);
  return useMemo(() => buildReferenceView(data ?? EMPTY), [data]);
}

/** The worker's reference data as it answers it (commands applied, with marks), re-read with `version`; null until the first answer. */
export function useReferenceAnswer(client: DataClient, version: number): ReferenceData | null {
  const [data, setData] = useState<ReferenceData | null>(null);
  useEffect(() => {
    let live = true;
    void client.referenceData().then((d) => {
      // A transition: the names and filter options re-render every row and select (issue 33).
      if (live) startTransition(() => setData(d));
    });
    return () => {
      live = false;
    };
  }, [client, version]);
  return data;
}
