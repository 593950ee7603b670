import type { MaskedBankAccount, Vendor, VendorAddress } from '../../../schema/entities/vendor.ts';
import { ACCOUNT_TYPE_LABELS } from '../../lib/bank-form.ts';
import { formatCount, joinList } from '../../lib/format.ts';
import type { StatusFilter } from './search-params.ts';

/**
 * What the vendor screens show, pure: the list's filter and order (the mirror's reference rows,
 * searched here so every keystroke answers at once, as the server's list: name, contacts' names
 * and emails, plus the vendor's own email), and the words of the table and the detail.
 */
export const NO_BANK = 'No bank account';

/** The search's words: every one must appear somewhere in the vendor's text (AND, substring). */
const terms = (q: string) => q.toLowerCase().split(/\s+/).filter(Boolean);

function vendorText(v: Vendor): string {
  return [v.name, v.email ?? '', ...v.contacts.flatMap((c) => [c.name, c.email ?? ''])].join(' ').toLowerCase();
}

export function filterVendors(vendors: readonly Vendor[], filter: { q: string; status: StatusFilter }): Vendor[] {
  const words = terms(filter.q);
  const wanted = filter.status === 'all' ? null : filter.status === 'archived' ? 'ARCHIVED' : 'ACTIVE';
  return vendors
    .filter((v) => !v.deleted && (wanted === null || v.status === wanted))
    .filter((v) => {
      if (words.length === 0) return true;
      const text = vendorText(v);
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id));
}

/** "•••• 1234" (the account's last four), or "No bank account". */
export const bankText = (bank: MaskedBankAccount | null): string => (bank ? `•••• ${bank.last_four}` : NO_BANK);

export { ACCOUNT_TYPE_LABELS };

/** "Checking •••• 1234 · routing •••• 0358". */
export const bankDetailText = (bank: MaskedBankAccount): string =>
  `${ACCOUNT_TYPE_LABELS[bank.account_type]} •••• ${bank.last_four} · routing •••• ${bank.routing_last_four}`;

/** The table's country/state column: "CA, US", "GB", or an em dash without an address. */
export function placeText(address: Pick<VendorAddress, 'state' | 'country'> | null): string {
  if (!address) return '—';
  return address.state ? `${address.state}, ${address.country}` : address.country;
}

/** The detail's address on its lines. */
export function addressLines(address: VendorAddress | null): string[] {
  if (!address) return [];
  const cityLine = [address.city, [address.state, address.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [address.line1, address.line2 ?? '', cityLine, address.country].filter((l) => l !== '');
}

/** The contact email the table shows: the vendor's own, else its first contact's. */
export const contactEmail = (v: Vendor): string | null => v.email ?? v.contacts.find((c) => c.email)?.email ?? null;

/** "3 vendors", "1 vendor". */
export const vendorCount = (n: number): string => `${formatCount(n)} ${n === 1 ? 'vendor' : 'vendors'}`;

/** A name ending a sentence: "Harbor Logistics Co." takes no second full stop. */
export const endSentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The merge confirmation's words: what moves to the survivor (contacts, bills, the details and
 * bank account it lacks — the server fills those, never overwrites) and that the others are removed.
 */
export function mergeSummary(survivor: Vendor, merged: readonly Vendor[]): string {
  const contacts = merged.reduce((n, v) => n + v.contacts.length, 0);
  const names = joinList(merged.map((v) => v.name));
  const moves = contacts > 0 ? `${contacts} ${contacts === 1 ? 'contact' : 'contacts'} and every bill` : 'Every bill';
  const filled: string[] = (['email', 'phone', 'address'] as const).filter((k) => survivor[k] === null && merged.some((m) => m[k] !== null));
  const donor = survivor.bank_account ? undefined : merged.find((m) => m.bank_account);
  if (donor?.bank_account) filled.push(`bank account (${bankText(donor.bank_account)})`);
  const fill = filled.length > 0 ? ` Its empty ${joinList(filled)} ${filled.length === 1 ? 'is' : 'are'} filled from them.` : '';
  return `${moves} of ${names} ${contacts > 0 ? 'move' : 'moves'} to ${endSentence(survivor.name)}${fill} ${names} ${merged.length === 1 ? 'is' : 'are'} then removed.`;
}

/** Vendors a call just answered with (by id) and those a merge removed. */
export interface Answers {
  vendors: ReadonlyMap<string, Vendor>;
  removed: ReadonlySet<string>;
}
export const NO_ANSWERS: Answers = { vendors: new Map(), removed: new Set() };

/**
 * The mirror's vendors with the server's latest answers on top: an answer wins only while it is
 * newer than the mirror's row (by change_seq), so the feed takes over as soon as it arrives.
 */
export function overlayAnswers(mirror: readonly Vendor[], answers: Answers): Vendor[] {
  const out = new Map(mirror.map((v) => [v.id, v]));
  for (const [id, answer] of answers.vendors) {
    const row = out.get(id);
    if (!row || row.change_seq < answer.change_seq) out.set(id, answer);
  }
  for (const id of answers.removed) out.delete(id);
  return [...out.values()];
}
