import {
  allowedRails, defaultRail, railArrival, railFee, railName, type PaymentRail, type RailVendor,
} from '../../../schema/payment-rails.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';

/**
 * Issue 30: what the pay confirmation offers and says per rail (schema/payment-rails.ts holds
 * the rules the server applies). Pure, so the words are tested without a browser.
 */
export type RailOption = { rail: PaymentRail; label: string; fee: number };

/** When an attempt sent today arrives, in words: "arrives Nov 24", "arrives Nov 30 – Dec 2", "same day". */
export function arrivalText(rail: PaymentRail, sendDay: string): string {
  const { earliest, latest } = railArrival(rail, sendDay);
  if (rail === 'WIRE') return earliest === sendDay ? 'same day' : `arrives ${formatDay(earliest)}`;
  return earliest === latest ? `arrives ${formatDay(latest)}` : `arrives ${formatDay(earliest)} – ${formatDay(latest)}`;
}

/** The rails the vendor can be paid on, each as the choice shows it: "Wire · same day · $15.00 fee". */
export function railOptions(vendor: RailVendor | undefined, currency: string, sendDay: string): RailOption[] {
  return allowedRails(vendor, currency).map((rail) => {
    const fee = railFee(rail, currency);
    const parts = [railName(rail), arrivalText(rail, sendDay), ...(fee > 0 ? [`${formatMoney(fee, currency)} fee`] : [])];
    return { rail, label: parts.join(' · '), fee };
  });
}

/** The rail the choice starts on: the one the server would take without being asked. */
export const initialRail = (vendor: RailVendor | undefined, currency: string): PaymentRail => defaultRail(vendor, currency);

/**
 * The confirmation's words for paying `amount` of invoice `invoice` now on `rail`: what happens,
 * when it arrives, what it costs. ACH says exactly what bill pay said before rails.
 */
export function payNowWords(rail: PaymentRail, p: { amount: number; currency: string; invoice: string; sendDay: string }): { description: string; confirm: string } {
  const amount = formatMoney(p.amount, p.currency);
  const { earliest, latest } = railArrival(rail, p.sendDay);
  const approval = 'If your business asks for payment approval, it goes to the approvers instead and is sent when they approve it.';
  if (rail === 'CHECK') {
    return {
      description: `A check for invoice ${p.invoice} is printed and mailed today, once. It arrives between ${formatDay(earliest)} and ${formatDay(latest)}; the bill shows as processing until the check clears. You can void it until then. ${approval}`,
      confirm: `Mail a check for ${amount}`,
    };
  }
  if (rail === 'WIRE') {
    const fee = formatMoney(railFee('WIRE', p.currency), p.currency);
    return {
      description: `The payment of invoice ${p.invoice} is wired now, once, and arrives ${earliest === p.sendDay ? 'today' : `on ${formatDay(earliest)}`}. The wire fee of ${fee} is taken from your operating account on top of the amount. ${approval}`,
      confirm: `Wire ${amount} (+ ${fee} fee)`,
    };
  }
  return {
    description: `The payment of invoice ${p.invoice} is sent now, once, by ACH; it settles on ${formatDay(latest)} and the bill shows as processing until then. ${approval}`,
    confirm: `Pay ${amount}`,
  };
}

/** A payment attempt's rail in the drawer's list: "ACH", "Check #1001", "Wire ($15.00 fee)". */
export function attemptRailText(p: { rail: PaymentRail; check_number: number | null; wire_fee: number | null }, currency: string): string {
  if (p.rail === 'CHECK') return `Check #${p.check_number}`;
  if (p.rail === 'WIRE') return p.wire_fee ? `Wire (${formatMoney(p.wire_fee, currency)} fee)` : 'Wire';
  return 'ACH';
}
