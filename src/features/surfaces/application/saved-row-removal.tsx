import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { useDataClient } from '../../../data-access/data-context.tsx';
import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import type { ApplicationModel } from './use-application.ts';

/**
 * Issue 31: removing an owner or a bank account the server holds (§7 "the DELETEs":
 * `application.ownerships.delete`, `application.accounts.delete`), confirmed first. An individual
 * owner goes with their identity check and its documents (the server drops a person no owner names
 * any more, never the control person). A refusal (a submitted application: APPLICATION_7001) is said
 * in the dialog, and the application is read again.
 */
export type RemovableStep = 'ownerships' | 'bank_accounts';
export interface RemovalTarget { index: number; id: string }

/** Why a saved row can't be removed now, or null. */
export function removalBlocked(model: ApplicationModel): string | null {
  if (model.application && model.application.status !== 'DRAFT') return 'A submitted application can’t be changed.';
  return model.online ? null : 'Removing needs a connection.';
}

function describe(app: FinancingApplication, step: RemovableStep, id: string): { title: string; text: string; confirm: string } {
  if (step === 'bank_accounts') {
    const a = app.bank_accounts.find((b) => b.id === id);
    const which = a ? `${a.holder_name}’s account ending ${a.account_last_four}` : 'this bank account';
    return { title: 'Remove this bank account?', text: `This removes ${which} from the application.`, confirm: 'Remove account' };
  }
  const o = app.owners.find((x) => x.id === id);
  const name = o?.name ?? 'this owner';
  const person = o?.kind === 'INDIVIDUAL'
    ? ' Their identity check and identity documents are removed with them, unless they are also the control person.'
    : '';
  return { title: `Remove ${name}?`, text: `This removes ${name} from the owners of the business.${person}`, confirm: 'Remove owner' };
}

export function SavedRowDialog({ model, step, target, onClose, onRemoved }: {
  model: ApplicationModel;
  step: RemovableStep;
  target: RemovalTarget;
  onClose(): void;
  onRemoved(index: number): void;
}) {
  const client = useDataClient();
  const words = describe(model.application!, step, target.id);
  async function remove() {
    const r = step === 'ownerships'
      ? await client.deleteApplicationOwners(model.appId, [target.id])
      : await client.deleteApplicationAccount(model.appId, target.id);
    if (r.ok) {
      model.take(r.application);
      onRemoved(target.index);
      return null;
    }
    if (r.error.error_code === 'APPLICATION_7001') void model.reload();
    return r.error;
  }
  return <DeleteDialog title={words.title} description={words.text} confirmLabel={words.confirm} onClose={onClose} onDelete={remove} />;
}
