import { Link } from '@tanstack/react-router';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { SearchBox } from '../../components/search-box.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { ListPage } from '../../lib/list/list-page.tsx';
import { ApprovalDrawer } from './approval-drawer.tsx';
import { ApproveDialog } from './approve-dialog.tsx';
import { RejectDialog } from './reject-dialog.tsx';
import { INBOX_TABS, INBOX_TYPES, type InboxType } from './search-params.ts';
import { useInbox } from './use-inbox.ts';

const TYPE_OPTIONS = INBOX_TYPES.map((t) => ({ value: t.key, label: t.label }));

/**
 * Issue 9 §3 and issue 10: the reviewer's inbox. Pending (oldest first) and Decided tabs over the
 * mirrored approvals joined with the claims, card requests and bills they review (a Type filter
 * narrows to one kind), never the viewer's own. Approve or reject one or many (checkboxes, x,
 * "Select all"; a / r act on the selection, else the current row); each decision is a command
 * through the worker, shown at once with its sync mark, offline too. Issue 25: a search box ('/')
 * narrows the tab by requester, vendor or merchant, memo, amount and invoice number
 * (inbox-search.ts, over the mirror); approving bills is confirmed with the amounts. The list is
 * the declarative list page (approvals-list.tsx); its state is `useInbox` (use-inbox.ts).
 */
export function ApprovalsPage() {
  const user = useAppState((s) => s.session?.user ?? null);
  if (!user) return null;
  // Everyone has an inbox: reviewers by role, and anyone an approval chain names as a step's
  // approver (a bill's, say): the mirror holds exactly the approvals each may see.
  return <Inbox viewer={user} />;
}

function Inbox({ viewer }: { viewer: SpendUser }) {
  const inbox = useInbox(viewer);
  const { search, setSearch, list, spec, dialog, decisions } = inbox;
  const { gridElement, searchRef } = list;
  // The search and the Type filter stay in the page's header, above the tabs; the tabs hold the list.
  const panel = <ListPage spec={spec} list={list} filtered={false} quiet={dialog !== null} />;
  return (
    <div className="approvals">
      <div className="page-header">
        <h1>Approvals</h1>
        <SearchBox id="approvals-search" label="Search approvals" placeholder="Search requester, vendor, amount…" ref={searchRef}
          value={inbox.q} onChange={inbox.setQ} onLeave={() => gridElement()?.focus()} />
        <SelectField label="Type" variant="filter" value={search.type ?? ''} leading={[{ value: '', label: 'All' }]} options={TYPE_OPTIONS}
          onChange={(next) => setSearch({ type: next === '' ? undefined : (next as InboxType), open: undefined })} />
        {isAdmin(viewer) && (
          <Link to="/approvals/policy" className="btn btn-ghost btn-sm">
            Bill policy
          </Link>
        )}
      </div>
      <Tabs
        label="Approvals"
        tabs={INBOX_TABS.map((t) => ({ key: t.key, label: t.label, panel }))}
        selected={inbox.tab}
        onSelect={(next) => setSearch({ tab: next === 'pending' ? undefined : next, open: undefined })}
      />
      {search.open && (
        <ApprovalDrawer id={search.open} client={inbox.client} reference={inbox.reference} version={inbox.dataVersion} canDecide={decisions.decidable}
          onApprove={(row) => void decisions.approve([row])} onReject={(row) => void decisions.askReject([row])}
          onClose={() => {
            setSearch({ open: undefined });
            gridElement()?.focus();
          }}
          returnFocus={gridElement} />
      )}
      {dialog?.kind === 'approve' && (
        <ApproveDialog targets={dialog.targets} reference={inbox.reference} onClose={() => inbox.setDialog(null)} returnFocus={gridElement}
          onApprove={() => decisions.finish(dialog.targets, { kind: 'approve' })} />
      )}
      {dialog?.kind === 'reject' && (
        <RejectDialog kinds={dialog.targets.map((t) => t.kind)} subject={dialog.subject} onClose={() => inbox.setDialog(null)} returnFocus={gridElement}
          onReject={(reason) => decisions.finish(dialog.targets, { kind: 'reject', reason })} />
      )}
    </div>
  );
}
