import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BILL_STEP_LABELS, BILL_STEP_TONES } from '../../lib/bill-labels.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { isPaymentStep, useBillApprovals, type ApprovalStepView, type BillView } from './use-bills.ts';

/**
 * The bill's approval chain as far as it has gone: one approval per step, each opened when the
 * step before it was approved (the server keeps the chain; the mirror holds the steps reached),
 * with who decides it, the decision, who made it and when, and a rejection's reason. A step's
 * approver is named when it has one; a step shared by several people or taken by the admins
 * (nobody else could approve it) says so.
 */
export function ApprovalChain({ bill, client, reference, version }: { bill: BillView; client: DataClient; reference: ReferenceView; version: number }) {
  const all = useBillApprovals(client, bill.id, version);
  const steps = all && all.filter((s) => !isPaymentStep(s));
  const paymentSteps = all?.filter(isPaymentStep) ?? [];
  const name = (id: string | null) => (id ? reference.names.user(id) || 'Someone not on this device' : null);
  const id = `${bill.id}-approval`;
  return (
    <>
      <section aria-labelledby={id}>
        <h3 id={id} className="claim-section-title">Approval</h3>
        <Steps bill={bill} steps={steps} name={name} />
      </section>
      {/* Issue 28: the payments' approvals under the vendor-payment policy, each ask its own chain. */}
      {paymentSteps.length > 0 && (
        <section aria-labelledby={`${id}-payment`}>
          <h3 id={`${id}-payment`} className="claim-section-title">Payment approval</h3>
          <Steps bill={bill} steps={paymentSteps} name={name} />
        </section>
      )}
    </>
  );
}

function Steps({ bill, steps, name }: { bill: BillView; steps: ApprovalStepView[] | null; name(id: string | null): string | null }) {
  return (
    <>
      {steps === null ? (
        <p className="muted">Reading the approval steps…</p>
      ) : steps.length === 0 ? (
        <p className="muted">{bill.status === 'DRAFT' ? 'Not submitted for approval yet.' : 'No approval steps on this device.'}</p>
      ) : (
        <ol className="bill-chain">
          {steps.map((step, i) => (
            <li key={step.id} className={`bill-step bill-step-${step.status.toLowerCase()}`}>
              <div className="bill-step-head">
                <span className="bill-step-number">Step {i + 1}</span>
                <span>{name(step.approver_id) ?? 'Any of the approvers (admins when nobody else can)'}</span>
                <span className="marks">
                  <StatusPill tone={BILL_STEP_TONES[step.status]}>{BILL_STEP_LABELS[step.status]}</StatusPill>
                  <SyncMark row={step} />
                </span>
              </div>
              {step.decided_at && (
                <p className="muted">
                  {step.status === 'REJECTED' ? 'Rejected' : 'Decided'}
                  {step.decided_by ? ` by ${name(step.decided_by)}` : ''} on <time dateTime={step.decided_at}>{formatLocalDateTime(step.decided_at)}</time>
                </p>
              )}
              {step.reason && <p className="bill-step-reason">Reason: {step.reason}</p>}
            </li>
          ))}
        </ol>
      )}
      {bill.status === 'PENDING_APPROVAL' && steps && steps.length > 0 && (
        <p className="muted">Later steps, if the policy has any, open as each one is approved.</p>
      )}
    </>
  );
}
