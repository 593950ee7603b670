import { useCallback, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { ExpensePolicy } from '../../../schema/entities/expense-policy.ts';
import type { ExpensePolicyScope } from '../../../schema/expense-policy.ts';
import { isAdmin, roleDisplayName } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { DeleteDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { formatMoney, joinList } from '../../lib/format.ts';
import { callThen } from '../../lib/forms/call-then.ts';
import { useReferenceAnswer } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { ComplianceTab } from './compliance-tab.tsx';
import { PolicyDialog } from './policy-dialog.tsx';
import { rulesSummary } from './policy-form.ts';
import type { PoliciesSearch } from './search-params.ts';

const routeApi = getRouteApi('/_app/policies');

type Dialog = { kind: 'edit'; policy: ExpensePolicy | null } | { kind: 'delete'; policy: ExpensePolicy } | null;

/**
 * Issue 29: /policies — the business's expense policies (mirrored: they read offline), created,
 * edited and deleted by admins online; the Compliance tab (online) per person or department with
 * reminders. Policies apply oldest first: when two ask for the same thing, the older one is named.
 */
export function PoliciesPage() {
  const { client, user, currency } = usePageData();
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const online = useAppState((s) => s.online);
  const data = useReferenceAnswer(client, useAppState((s) => s.referenceVersion));
  const [dialog, setDialog] = useState<Dialog>(null);
  const opener = useRef<HTMLElement | null>(null);
  const admin = !!user && isAdmin(user);
  const setSearch = useCallback((patch: Partial<PoliciesSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }), [navigate]);
  // Oldest first: the order in which they win (the evaluator's, schema/entities/expense-policy.ts).
  const policies = useMemo(() => (data ? [...data.expense_policies].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)) : null), [data]);
  const departments = useMemo(() => new Map((data?.departments ?? []).map((d) => [d.id, d.name])), [data]);
  const open = (d: Dialog) => {
    opener.current = document.activeElement as HTMLElement | null;
    setDialog(d);
  };

  const list = !policies ? (
    <ListSkeleton what="policies" />
  ) : policies.length === 0 ? (
    <EmptyState title="No expense policies yet" action={admin ? <Button variant="primary" onClick={() => open({ kind: 'edit', policy: null })}>New policy</Button> : undefined}>
      A policy says what every card charge and claim needs — a receipt from 75 USD, a memo, coding — and each person sees what they miss.
    </EmptyState>
  ) : (
    <ul className="policy-list">
      {policies.map((p) => (
        <li key={p.id} className="policy-card">
          <div className="policy-card-main">
            <div className="policy-card-title">
              <h2>{p.name}</h2>
              <StatusPill tone={p.enabled ? 'ok' : 'neutral'}>{p.enabled ? 'On' : 'Off'}</StatusPill>
            </div>
            <p className="policy-card-scope">{scopeWords(p.scope, (id) => departments.get(id) ?? 'Deleted department')}</p>
            <p className="policy-card-rules">{rulesSummary(p.rules, formatMoney)}</p>
            {p.description && <p className="muted">{p.description}</p>}
          </div>
          {admin && (
            <div className="policy-card-actions">
              <Button size="sm" disabled={!online} onClick={() => open({ kind: 'edit', policy: p })}>Edit<span className="sr-only"> {p.name}</span></Button>
              <Button size="sm" variant="ghost" disabled={!online} onClick={() => open({ kind: 'delete', policy: p })}>Delete<span className="sr-only"> {p.name}</span></Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );

  return (
    <div className="policies">
      <div className="page-header">
        <h1>Expense policies</h1>
        <span className="spacer" />
        {admin && (
          <Button variant="primary" disabled={!online} onClick={() => open({ kind: 'edit', policy: null })}>New policy</Button>
        )}
      </div>
      {!online && <p className="notice" role="status">You’re offline. Policies show as last synced; creating, editing, deleting and compliance need a connection.</p>}
      <Tabs
        label="Expense policies"
        selected={search.tab ?? 'policies'}
        onSelect={(tab) => setSearch({ tab: tab === 'policies' ? undefined : tab })}
        tabs={[
          { key: 'policies', label: 'Policies', panel: list },
          { key: 'compliance', label: 'Compliance', panel: <ComplianceTab client={client} online={online} canRemind={admin} search={search} onSearch={setSearch} /> },
        ]}
      />
      {dialog?.kind === 'edit' && (
        <PolicyDialog client={client} policy={dialog.policy} currency={currency} departments={data?.departments ?? []} online={online} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete ${dialog.policy.name}?`}
          description="Its rules stop applying at once: items it flagged leave everyone’s missing items unless another policy asks the same."
          confirmLabel="Delete policy"
          onClose={() => setDialog(null)}
          onDelete={callThen(() => client.deleteExpensePolicy(dialog.policy.id), () => toastInfo(`Deleted “${dialog.policy.name}”.`))}
        />
      )}
    </div>
  );
}

/** "Everyone", "Departments: Sales, Ops", "Roles: Employee, Bookkeeper". */
export function scopeWords(scope: ExpensePolicyScope, department: (id: string) => string): string {
  if (scope.kind === 'everyone') return 'Everyone';
  if (scope.kind === 'departments') return `Departments: ${joinList(scope.department_ids.map(department))}`;
  return `Roles: ${joinList(scope.roles.map((r) => roleDisplayName(r)))}`;
}
