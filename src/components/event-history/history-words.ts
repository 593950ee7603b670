import { fieldLabel, MONEY_FIELDS, type EntityEvent, type EventEntityType } from '../../../schema/event-history.ts';
import { formatCount, formatDay, formatMoney, joinList } from '../../lib/format.ts';

/**
 * Issue 32, event history in words (pure, tested): who did it, what changed from what to what —
 * names for ids, amounts in the entity's currency, days as days, statuses as words — and from
 * which device ("this device" for this browser's own writes).
 */

/** What the section says offline: history is read from the server, never kept on the device. */
export const HISTORY_OFFLINE = 'History needs a connection. It loads when you’re back online.';

/** What it says when the server does not know the item yet (made on this device, waiting to sync). */
export const HISTORY_ABSENT = 'No history yet: this item hasn’t reached Ledgerline. Its history starts once it syncs.';

/** One event as the list shows it. */
export interface EventLine {
  /** "Jane Roe", "HRIS BambooHR", "System". */
  who: string;
  /** "created this bill", "imported this person", "changed Memo": follows `who`. */
  what: string;
  /** The values, in words; null for a creation. */
  from: string | null;
  to: string | null;
  /** "this device", "Chrome on Windows", "another device"; null when the write named none. */
  device: string | null;
  /** The integration or system wrote it (styled as the system's). */
  automated: boolean;
}

const NOUN: Record<EventEntityType, string> = {
  transaction: 'transaction', reimbursement: 'claim', bill: 'bill', card: 'card', vendor: 'vendor', user: 'person',
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENUM = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const MAX_TEXT = 80;

const INTERVALS: Record<string, string> = { DAILY: 'per day', WEEKLY: 'per week', MONTHLY: 'per month', YEARLY: 'per year', TOTAL: 'in total' };

/** "PENDING_APPROVAL" → "Pending approval". */
export function enumWords(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words[0]!.toUpperCase() + words.slice(1);
}

type CardLimit = { limit_amount?: unknown; limit_currency?: unknown; limit_interval?: unknown; per_transaction_limit?: unknown };

function limitWords(v: CardLimit): string {
  const currency = typeof v.limit_currency === 'string' ? v.limit_currency : null;
  if (typeof v.limit_amount !== 'number' || !currency) return 'No limit';
  const interval = typeof v.limit_interval === 'string' ? INTERVALS[v.limit_interval] ?? enumWords(v.limit_interval).toLowerCase() : null;
  const main = [formatMoney(v.limit_amount, currency), interval].filter(Boolean).join(' ');
  return typeof v.per_transaction_limit === 'number' ? `${main}, ${formatMoney(v.per_transaction_limit, currency)} per purchase` : main;
}

function listWords(field: string, items: unknown[]): string {
  if (items.length === 0) return 'None';
  if (field === 'receipt_ids') return items.length === 1 ? '1 receipt' : `${formatCount(items.length)} receipts`;
  if (items.every((i) => typeof i === 'string' && !UUID.test(i))) {
    const words = (items as string[]).map((i) => (ENUM.test(i) ? enumWords(i) : i));
    return words.length <= 3 ? joinList(words) : `${joinList(words.slice(0, 3))} and ${formatCount(words.length - 3)} more`;
  }
  return `${formatCount(items.length)} items`;
}

function objectWords(field: string, v: Record<string, unknown>): string {
  if (field === 'limit') return limitWords(v);
  if (field === 'address') {
    const parts = ['line1', 'city', 'state', 'country'].map((k) => v[k]).filter((p): p is string => typeof p === 'string' && p !== '');
    return parts.length ? parts.join(', ') : 'None';
  }
  const n = Object.keys(v).length;
  if (n === 0) return 'None';
  if (field === 'tracking') return n === 1 ? '1 tracking category' : `${formatCount(n)} tracking categories`;
  return `${formatCount(n)} values`;
}

/** A stored value in words: `label` (a name for an id) first, else by its shape and the field. */
export function valueWords(field: string, value: unknown, label: string | null, currency: string | null): string {
  if (label) return label;
  if (value === null || value === undefined || value === '') return 'None';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return MONEY_FIELDS.has(field) && currency ? formatMoney(value, currency) : formatCount(value);
  if (Array.isArray(value)) return listWords(field, value);
  if (typeof value === 'object') return objectWords(field, value as Record<string, unknown>);
  const text = String(value);
  if (ISO_DAY.test(text)) return formatDay(text);
  if (UUID.test(text)) return field === 'invoice_file_id' ? 'A file' : 'A removed item';
  if (ENUM.test(text) && /(status|state|role|type|interval)$/.test(field)) return enumWords(text);
  const clipped = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
  return `“${clipped}”`;
}

/** "this device" for this browser's own writes, the device's name for another's, "another device" when it has none. */
export function deviceWords(deviceId: string | null, deviceName: string | null, myDevice: string | null): string | null {
  if (!deviceId) return null;
  if (myDevice && deviceId === myDevice) return 'this device';
  return deviceName ?? 'another device';
}

/** The event as a line of the list. */
export function eventLine(event: EntityEvent, type: EventEntityType, currency: string | null, myDevice: string | null): EventLine {
  const automated = event.actor.kind !== 'user';
  const device = deviceWords(event.device_id, event.device_name, myDevice);
  if (event.field === 'created') {
    const imported = event.actor.kind === 'hris' || event.actor.kind === 'scim';
    return { who: event.actor.label, what: `${imported ? 'imported' : 'created'} this ${NOUN[type]}`, from: null, to: null, device, automated };
  }
  return {
    who: event.actor.label,
    what: `changed ${fieldLabel(event.field)}`,
    from: valueWords(event.field, event.from, event.from_label, currency),
    to: valueWords(event.field, event.to, event.to_label, currency),
    device,
    automated,
  };
}
