import { Button } from '../../components/button.tsx';
import { RefusedChange } from '../../components/refused-change.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { HeldChargeSection } from '../../components/held-charges.tsx';
import { LazyCommentThread } from '../../components/lazy-comment-thread.tsx';
import { PolicySection } from '../../components/policy-violations.tsx';
import { SyncedLock } from '../../components/synced-lock.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { CodingFields, MemoFields, ReceiptsSection, SuggestionNote, TransactionFacts } from './drawer-parts.tsx';
import type { ReferenceView } from './use-reference-data.ts';
import { useDetailDrawer } from './use-detail-drawer.ts';
import { AttendeeSplitSection, CopyReceiptsOffer } from './attendee-split-section.tsx';
import { LazyEventHistory } from '../../components/event-history/lazy-event-history.tsx';

export interface DetailDrawerProps {
  id: string;
  client: DataClient;
  reference: ReferenceView;
  dataVersion: number;
  /** Auditors and guests read but do not code (§6). */
  canCode: boolean;
  onClose(): void;
  /** Where focus goes when the drawer closes (the grid). */
  returnFocus(): HTMLElement | null | undefined;
}

/** One transaction: facts, sync state (with the server's reason when refused), memo, attendees and coding. */
export function DetailDrawer({ id, client, reference, dataVersion, canCode, onClose, returnFocus }: DetailDrawerProps) {
  const d = useDetailDrawer(client, id, reference, dataVersion, canCode);
  const { txn, form, edit, locked } = d;
  return (
    // Non-modal: the list beside it stays live (j/k and clicks move the open row).
    <Drawer
      title={txn ? txn.merchant_name : txn === null ? 'Transaction not found' : 'Transaction'}
      titleRef={d.heading}
      closeLabel="Close details"
      modal={false}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      {/* Outside the coding form: its answers and dialogs are not the form's. */}
      {txn?.fraud_status && (
        <div className="drawer-held">
          <HeldChargeSection tx={txn} />
        </div>
      )}
      {txn && form && (
        <form className="drawer-body" onSubmit={(e) => void d.save(e)}>
          {txn.accounting_synced_at && <SyncedLock client={client} type="transaction" id={txn.id} syncedAt={txn.accounting_synced_at} />}
          <fieldset disabled={!canCode || locked} className="plain-fieldset">
            <TransactionFacts txn={txn} card={d.card} names={reference.names} />
            <RefusedChange row={txn} client={client} />
            <PolicySection client={client} objectType="transaction" id={txn.id} version={dataVersion} />
            <MemoFields form={form} edit={edit} viewOnly={!canCode && !locked} />
            {d.suggestion && <SuggestionNote suggestion={d.suggestion} form={form} edit={edit} names={reference.names} onDismiss={() => void d.dismissSuggestion()} />}
            <CodingFields txn={txn} form={form} edit={edit} reference={reference} />
          </fieldset>
          <AttendeeSplitSection key={`${txn.id}\n${(txn.attendees ?? []).join('\n')}`} txn={txn} client={client} reference={reference} canEdit={canCode} />
          <ReceiptsSection receipts={d.receipts} canCode={canCode} />
          <CopyReceiptsOffer txn={txn} client={client} canEdit={canCode} dataVersion={dataVersion} />
          <div className="drawer-actions" hidden={!canCode || locked}>
            <Button type="submit" variant="primary" loading={d.saving} disabled={!d.changed}>
              Save
            </Button>
            <Button disabled={!d.changed} onClick={d.reset}>
              Reset
            </Button>
          </div>
          <LazyCommentThread subjectType="transaction" subjectId={txn.id} />
          <LazyEventHistory entityType="transaction" entityId={txn.id} />
        </form>
      )}
    </Drawer>
  );
}
