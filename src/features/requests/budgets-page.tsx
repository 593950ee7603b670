import { useCallback, useMemo, useRef, useState } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { canCreateSpendAllocations } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Facts, type Fact } from '../../components/facts.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { localDay } from '../../lib/bill-labels.ts';
import { INTERVAL_WORDS } from '../../lib/card-labels.ts';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import { formatCount, formatMoney } from '../../lib/format.ts';
import { useReferenceAnswer, buildReferenceView } from '../../lib/reference-data.ts';
import { budgetLeftText, budgetOpen, budgetTone, budgetUsed } from '../../lib/spend-request-labels.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { AddPeopleDialog, NewBudgetDialog } from './budget-dialogs.tsx';
import { budgetOrder, mayAddPeople } from './budget-form.ts';
import type { BudgetsSearch } from './search-params.ts';

const routeApi = getRouteApi('/_app/budgets');

/**
 * Issue 28: /budgets — the spend allocations the viewer sees (reference data: what is left shows
 * offline too), each with its limit and interval, spent and left on a bar, members, cards and end
 * date. "New budget" for admins and managers and "Add people" for them and the budget's owner
 * are online calls (the dialogs say so offline); "Request more" is a GENERAL_EXPENSE request
 * naming the budget, which works offline.
 */
export function BudgetsPage() {
  const { user } = usePageData();
  if (!user) return null;
  return <Budgets viewer={user} />;
}

type Dialog = { kind: 'new' } | { kind: 'add'; budget: SpendAllocation } | null;

function Budgets({ viewer }: { viewer: SpendUser }) {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const go = useNavigate();
  const { client, currency } = usePageData();
  const online = useAppState((s) => s.online);
  const data = useReferenceAnswer(client, useAppState((s) => s.referenceVersion));
  const reference = useMemo(() => (data ? buildReferenceView(data) : null), [data]);
  const today = localDay();
  const canCreate = canCreateSpendAllocations(viewer);
  const [dialog, setDialog] = useState<Dialog>(null);
  const opener = useRef<HTMLElement | null>(null);
  const setSearch = useCallback((patch: Partial<BudgetsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }), [navigate]);

  const budgets = useMemo(() => budgetOrder((data?.spend_allocations ?? []).filter((a) => !a.archived), today), [data, today]);
  const open = search.open ? (data?.spend_allocations.find((a) => a.id === search.open) ?? null) : null;
  const requestMore = (b: SpendAllocation) => void go({ to: '/requests', search: { new: 'request', budget: b.id } });
  const remember = () => {
    opener.current = document.activeElement as HTMLElement | null;
  };

  return (
    <div className="budgets-page">
      <div className="page-header">
        <h1>Budgets</h1>
        <span className="spacer" />
        {canCreate && (
          <Button variant="primary" onClick={() => {
            remember();
            setDialog({ kind: 'new' });
          }}>
            New budget
          </Button>
        )}
      </div>
      {!reference ? (
        <ListSkeleton what="budgets" />
      ) : budgets.length === 0 ? (
        <EmptyState title="No budgets yet" action={canCreate ? <Button variant="primary" onClick={() => setDialog({ kind: 'new' })}>New budget</Button> : undefined}>
          {canCreate
            ? 'A budget is a limit a team’s cards spend from: set the amount and interval, add people, and see what is left at a glance, offline too.'
            : 'Budgets you own or belong to show up here with what is left. Ask your manager to add you to one.'}
        </EmptyState>
      ) : (
        <ul className="budget-grid" aria-label="Budgets">
          {budgets.map((b) => (
            <li key={b.id}>
              <BudgetCard budget={b} today={today} ownerName={reference.names.user(b.owner_id)} mayAdd={mayAddPeople(b, viewer.id, canCreate)}
                onOpen={() => {
                  remember();
                  setSearch({ open: b.id });
                }}
                onRequestMore={() => requestMore(b)}
                onAdd={() => {
                  remember();
                  setDialog({ kind: 'add', budget: b });
                }} />
            </li>
          ))}
        </ul>
      )}
      {search.open && reference && (
        <Drawer title={open ? open.name : 'Budget not found'} closeLabel="Close budget" onClose={() => setSearch({ open: undefined })} returnFocus={() => opener.current}>
          <div className="drawer-body">
            {open ? (
              <BudgetDetails budget={open} today={today} userName={reference.names.user} />
            ) : (
              <p className="muted">This budget is not on this device: it may have ended, or you may no longer be a member.</p>
            )}
            {open && (
              <div className="drawer-actions">
                <Button variant="primary" onClick={() => requestMore(open)} disabled={!budgetOpen(open, today)}>Request more</Button>
                {mayAddPeople(open, viewer.id, canCreate) && <Button variant="secondary" onClick={() => setDialog({ kind: 'add', budget: open })}>Add people</Button>}
              </div>
            )}
          </div>
        </Drawer>
      )}
      {dialog?.kind === 'new' && reference && (
        <NewBudgetDialog client={client} currency={currency} online={online} users={reference.data.users} onClose={() => setDialog(null)}
          returnFocus={() => opener.current} onCreated={(id) => {
            setDialog(null);
            if (id) setSearch({ open: id });
          }} />
      )}
      {dialog?.kind === 'add' && reference && (
        <AddPeopleDialog client={client} online={online} budget={dialog.budget} users={reference.data.users} onClose={() => setDialog(null)} returnFocus={() => opener.current} />
      )}
    </div>
  );
}

/** The spent share as a bar, named by the sentence it stands for ("$380.00 left of $500.00 this month"). */
export function BudgetBar({ budget, label }: { budget: SpendAllocation; label: string }) {
  const used = budgetUsed(budget);
  return (
    <div className={`budget-bar budget-bar-${budgetTone(budget)}`} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={budget.limit.amount}
      aria-valuenow={Math.min(budget.spent, budget.limit.amount)} aria-valuetext={budgetLeftText(budget)}>
      <span className="budget-bar-fill" style={{ width: `${Math.round(used * 100)}%` }} />
    </div>
  );
}

function BudgetCard({ budget, today, ownerName, mayAdd, onOpen, onRequestMore, onAdd }: {
  budget: SpendAllocation; today: string; ownerName: string; mayAdd: boolean; onOpen(): void; onRequestMore(): void; onAdd(): void;
}) {
  const open = budgetOpen(budget, today);
  const headingId = `budget-${budget.id}`;
  return (
    <article className="budget-card" aria-labelledby={headingId}>
      <div className="budget-card-head">
        <h2 id={headingId} className="budget-name">
          <button type="button" className="btn-link budget-open" onClick={onOpen}>{budget.name}</button>
        </h2>
        {!open && <StatusPill tone="neutral">Ended</StatusPill>}
      </div>
      <p className="budget-left"><strong>{formatMoney(budget.left, budget.limit.currency)}</strong> <span className="muted">left</span></p>
      <BudgetBar budget={budget} label={`Spent of ${budget.name}`} />
      <p className="muted budget-line">
        {formatMoney(budget.spent, budget.limit.currency)} spent of {formatMoney(budget.limit.amount, budget.limit.currency)} {INTERVAL_WORDS[budget.limit.interval]}
      </p>
      <p className="muted budget-line">
        {formatCount(budget.member_ids.length)} {budget.member_ids.length === 1 ? 'member' : 'members'} · {formatCount(budget.card_ids.length)}{' '}
        {budget.card_ids.length === 1 ? 'card' : 'cards'}
        {budget.end_date ? ` · ends ${formatClaimDate(budget.end_date)}` : ''}
        {ownerName ? ` · owner ${ownerName}` : ''}
      </p>
      <div className="budget-actions">
        <Button size="sm" variant="secondary" onClick={onRequestMore} disabled={!open}>
          Request more<span className="sr-only"> for {budget.name}</span>
        </Button>
        {mayAdd && (
          <Button size="sm" variant="ghost" onClick={onAdd}>
            Add people<span className="sr-only"> to {budget.name}</span>
          </Button>
        )}
      </div>
    </article>
  );
}

function BudgetDetails({ budget, today, userName }: { budget: SpendAllocation; today: string; userName(id: string): string }) {
  const rows: Fact[] = [
    ['Left', budgetLeftText(budget)],
    ['Spent', `${formatMoney(budget.spent, budget.limit.currency)} ${budget.limit.interval === 'TOTAL' ? 'in total' : 'this period'}`],
    ['Limit', `${formatMoney(budget.limit.amount, budget.limit.currency)} ${INTERVAL_WORDS[budget.limit.interval]}`],
    ['Owner', userName(budget.owner_id) || '—'],
    ['Ends', budget.end_date ? `${formatClaimDate(budget.end_date)}${budgetOpen(budget, today) ? '' : ' (ended)'}` : 'No end date'],
    ['Cards', budget.card_ids.length === 0 ? 'None yet' : formatCount(budget.card_ids.length)],
    ...(budget.description ? [['Description', budget.description] as Fact] : []),
  ];
  const members = budget.member_ids.map((id) => userName(id) || 'Someone not on this device').sort((a, b) => a.localeCompare(b));
  return (
    <>
      <div className="drawer-amount">{formatMoney(budget.left, budget.limit.currency)} <span className="muted">left</span></div>
      <BudgetBar budget={budget} label={`Spent of ${budget.name}`} />
      <Facts rows={rows} />
      <section aria-labelledby={`${budget.id}-members`}>
        <h3 id={`${budget.id}-members`} className="claim-section-title">Members ({formatCount(members.length)})</h3>
        {members.length === 0 ? <p className="muted">No members yet.</p> : (
          <ul className="budget-members">{members.map((m, i) => <li key={`${m}-${i}`}>{m}</li>)}</ul>
        )}
      </section>
    </>
  );
}
