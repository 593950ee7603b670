import type { z } from 'zod';
import { checkBillAction, checkBillPatch, validateBill } from '../../../schema/bill-rules.ts';
import { commandDef } from '../../../schema/commands/index.ts';
import { billTemplateCreateSchema } from '../../../schema/api/calls-bill-extras.ts';
import type { Bill, BillPatch, BillStatus } from '../../../schema/entities/bill.ts';
import type { VendorCredit } from '../../../schema/entities/vendor-credit.ts';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';
import { billPoLineErrors } from '../../../schema/bill-match.ts';

/**
 * The bill form's values (what the inputs hold, as typed) and their way to the bill commands
 * (schema/commands/bill.ts): the input is parsed with the command's own args schema and the
 * bill checked with `validateBill` (and, for an edit, `checkBillPatch`), exactly what the
 * server runs (server/domain/bills.ts), so a bill the form accepts is one the server accepts.
 * Errors come back keyed by the API's field paths (`line_items.0.amount`, `amount` for the
 * total), worded with the form's labels. Pure; tested in bill-form.test.ts. Beside it, also pure:
 * bill-form-credits.ts (the vendor credits a bill may draw on) and bill-form-prefill.ts (an
 * invoice's reading, a template, the vendor a name matches, the due-date hint).
 */
export interface BillLineValues {
  /** The row's React key (stable while lines are added and removed; never sent). */
  key: string;
  description: string;
  /** As typed ("1,250.00"). */
  amount: string;
  gl_account_id: string;
  department_id: string;
  /** Issue 28, a bill naming a PO: the PO line billed, and how many at what unit price (as typed; amount = their product). */
  po_line_id?: string;
  quantity?: string;
  unit_price?: string;
  /** The line's location and tracking (bulk coding, accounting): not shown here, re-sent as they are (`keptCoding`). */
  location_id?: string; tracking?: Readonly<Record<string, string>>;
}

const keptCoding = (l: { location_id?: string | null; tracking?: Readonly<Record<string, string>> }) =>
  ({ ...(l.location_id ? { location_id: l.location_id } : {}), ...(l.tracking && Object.keys(l.tracking).length > 0 ? { tracking: { ...l.tracking } } : {}) });

/**
 * A vendor credit applied to the bill: on the bill it is a **credit line** (its amount negative,
 * `vendor_credit_id` the credit it draws on, schema/entities/bill.ts); the form keeps it apart
 * from the lines and sends it after them.
 */
export interface BillCreditValues {
  vendor_credit_id: string;
  description: string;
  /** What it takes off the bill, as typed, positive ("50.00"). */
  amount: string;
}

export interface BillFormValues {
  vendor_id: string;
  invoice_number: string;
  invoice_date: string;
  due_date: string;
  currency: string;
  lines: BillLineValues[];
  /** Vendor credits applied (the vendor's and the bill's currency only: a change of either drops them). */
  credits: BillCreditValues[];
  memo: string;
  /** The invoice document: a receipt-store id (client id while it waits to upload). */
  invoice_file_id: string | null;
  /** Issue 28: the purchase order the bill bills ('' or absent: none). */
  purchase_order_id?: string;
}

/** The fields a person can type in (what "already typed" means for a prefill). */
export type BillField = Exclude<keyof BillFormValues, 'lines'> | 'lines';
/** API field path → message (`vendor_id`, `line_items.2.amount`, `amount` = the total). */
export type BillFieldErrors = Record<string, string>;

/** Payment terms when the vendor states none (vendors carry no terms yet): net 30. */
export const DEFAULT_TERMS_DAYS = 30;

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The due date a new bill starts with: the invoice date + the terms' days ('' without a date). */
export const defaultDueDate = (invoiceDate: string, termsDays = DEFAULT_TERMS_DAYS) =>
  /^\d{4}-\d{2}-\d{2}$/.test(invoiceDate) ? addDays(invoiceDate, termsDays) : '';

export const emptyLine = (key: string, vendor?: Pick<Vendor, 'default_gl_account_id' | 'default_department_id'> | null): BillLineValues => ({
  key, description: '', amount: '', gl_account_id: vendor?.default_gl_account_id ?? '', department_id: vendor?.default_department_id ?? '',
});

export function emptyBillValues(currency: string, today: string, lineKey = 'line-0'): BillFormValues {
  return {
    vendor_id: '', invoice_number: '', invoice_date: today, due_date: defaultDueDate(today), currency,
    lines: [emptyLine(lineKey)], credits: [], memo: '', invoice_file_id: null,
  };
}

/** Minor units as the amount input shows them (125000 USD → "1250.00"). */
export function amountText(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  return exp === 0 ? String(minor) : (minor / 10 ** exp).toFixed(exp);
}

/** A bill's values in the form (editing it). */
export function billValues(b: Bill): BillFormValues {
  return {
    vendor_id: b.vendor_id,
    invoice_number: b.invoice_number,
    invoice_date: b.invoice_date,
    due_date: b.due_date,
    currency: b.currency,
    lines: b.line_items.filter((l) => !l.vendor_credit_id).map((l) => ({
      key: l.id, description: l.description, amount: amountText(l.amount, b.currency),
      gl_account_id: l.gl_account_id ?? '', department_id: l.department_id ?? '',
      ...(l.po_line_id || l.quantity !== null ? { po_line_id: l.po_line_id ?? '', quantity: l.quantity === null ? '' : String(l.quantity),
        unit_price: l.unit_price === null ? '' : amountText(l.unit_price, b.currency) } : {}),
      ...keptCoding(l),
    })),
    credits: b.line_items.flatMap((l) => (l.vendor_credit_id
      ? [{ vendor_credit_id: l.vendor_credit_id, description: l.description, amount: amountText(-l.amount, b.currency) }]
      : [])),
    memo: b.memo ?? '',
    invoice_file_id: b.invoice_file_id,
    ...(b.purchase_order_id ? { purchase_order_id: b.purchase_order_id } : {}),
  };
}

/** A typed amount in minor units ("$1,250.00" → 125000), or null when it is not money in that currency. */
export function parseAmount(text: string, currency: string): number | null {
  const bare = text.trim().replace(/^[A-Z]{3}\s*|\s*[A-Z]{3}$/g, '').replace(/^[$€£¥]\s*|\s*[$€£¥]$/g, '').replace(/\s/g, '');
  return bare === '' ? null : toMinorUnits(bare, currency);
}

/** The live total (the lines' sum) and whether every typed amount could be read. */
export function linesTotal(lines: readonly BillLineValues[], currency: string): { minor: number; complete: boolean } {
  let minor = 0;
  let complete = true;
  for (const line of lines) {
    if (line.amount.trim() === '') continue;
    const amount = parseAmount(line.amount, currency);
    if (amount === null) complete = false;
    else minor += amount;
  }
  return { minor, complete };
}

/**
 * The bill's total as the server computes it: the lines' sum less the credits applied. `complete`
 * is false while an amount cannot be read (the total is then unknown).
 */
export function billTotals(v: Pick<BillFormValues, 'lines' | 'credits' | 'currency'>): { lines: number; credits: number; total: number; complete: boolean } {
  const lines = linesTotal(v.lines, v.currency);
  let credits = 0;
  let complete = lines.complete;
  for (const c of v.credits) {
    const minor = c.amount.trim() === '' ? 0 : parseAmount(c.amount, v.currency);
    if (minor === null) complete = false;
    else credits += minor;
  }
  return { lines: lines.minor, credits, total: lines.minor - credits, complete };
}

/** Which parts of a bill in `status` may change (bill-rules.ts: what approvers saw stays as approved). */
export function editableParts(status: BillStatus | null) {
  if (status === null) return { payable: true, dates: true, memo: true, submit: true };
  return {
    payable: checkBillAction('editPayable', status).ok,
    dates: checkBillAction('editDates', status).ok,
    memo: checkBillAction('editMemo', status).ok,
    submit: checkBillAction('submit', status).ok,
  };
}

const trimmed = (s: string) => (s.trim() === '' ? undefined : s.trim());

/**
 * The bill's fields as the API names them. A value the schema does not take is passed on as
 * typed, so the schema's own message says why ("must be a valid number").
 */
export function billFields(v: BillFormValues) {
  return {
    vendor_id: trimmed(v.vendor_id),
    invoice_number: v.invoice_number.trim(),
    invoice_date: trimmed(v.invoice_date),
    due_date: trimmed(v.due_date),
    currency: v.currency,
    line_items: [...lineInputs(v.lines, v.currency), ...v.credits.map((c) => {
      // A credit line takes money off: the typed amount, negated (what cannot be read goes as typed).
      const typed = trimmed(c.amount);
      const minor = typed === undefined ? null : parseAmount(typed, v.currency);
      return { description: c.description.trim(), amount: minor === null ? typed : -minor, vendor_credit_id: c.vendor_credit_id };
    })],
    memo: v.memo.trim(),
    purchase_order_id: trimmed(v.purchase_order_id ?? ''),
  };
}

/** The lines as the API takes them (a bill's, with location and tracking; a template's or recurring bill's, without); unreadable amounts as typed. */
export function lineInputs(lines: readonly BillLineValues[], currency: string, opts: { for: 'bill' | 'template' } = { for: 'bill' }) {
  return lines.map((l) => {
    const typed = trimmed(l.amount);
    const minor = typed === undefined ? null : parseAmount(typed, currency);
    return {
      description: l.description.trim(),
      amount: minor ?? typed,
      ...(l.gl_account_id ? { gl_account_id: l.gl_account_id } : {}),
      ...(l.department_id ? { department_id: l.department_id } : {}),
      ...(opts.for === 'bill' ? keptCoding(l) : {}),
      ...poLineInput(l, currency),
    };
  });
}

/** Issue 28: a line's PO line, quantity and unit price as the API takes them (left out when none is typed; unreadable values as typed). */
function poLineInput(l: BillLineValues, currency: string) {
  const quantity = trimmed(l.quantity ?? '');
  const price = trimmed(l.unit_price ?? '');
  if (!l.po_line_id && quantity === undefined && price === undefined) return {};
  const minor = price === undefined ? null : parseAmount(price, currency);
  return {
    ...(l.po_line_id ? { po_line_id: l.po_line_id } : {}),
    quantity: quantity === undefined ? null : /^\d+$/.test(quantity) ? Number(quantity) : quantity,
    unit_price: price === undefined ? null : minor ?? price,
  };
}

/** A PO line's amount from its quantity and unit price as typed ("5", "45.00" → "225.00"), or null while either cannot be read. */
export function poLineAmount(quantity: string, unitPrice: string, currency: string): string | null {
  const q = quantity.trim();
  const p = unitPrice.trim() === '' ? null : parseAmount(unitPrice, currency);
  if (!/^\d+$/.test(q) || p === null) return null;
  return amountText(Number(q) * p, currency);
}

const LABELS: [RegExp, string][] = [
  [/^vendor_id\b/, 'Vendor'], [/^invoice_number\b/, 'Invoice number'], [/^invoice_date\b/, 'Invoice date'], [/^due_date\b/, 'Due date'],
  [/^currency\b/, 'Currency'], [/^memo\b/, 'Memo'], [/^line_items\b/, 'Lines'],
];

const LINE_FIELD_WORDS: Record<string, string> = { gl_account_id: 'GL account', department_id: 'department', po_line_id: 'PO line', unit_price: 'unit price' };
/** One API error message in the form's words ("line_items.1.amount is required" → "Line 2: amount is required"). */
function worded(path: string, message: string): string {
  if (path === 'vendor_id' && /is required/.test(message)) return 'Choose the vendor.';
  const line = /^line_items\.(\d+)\.(\w+)/.exec(path);
  let text = message.replaceAll('patch.', '');
  if (line) {
    const field = LINE_FIELD_WORDS[line[2]!] ?? line[2]!;
    text = text.replace(/^line_items\.\d+\.\w+/, `Line ${Number(line[1]) + 1}: ${field}`);
  } else {
    for (const [re, label] of LABELS) if (re.test(path)) text = text.replace(path, label);
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** API field errors (the command's schema, validateBill, or the server's 422) → the form's, by field path. */
export function billFormErrors(errors: Record<string, string>): BillFieldErrors {
  const out: BillFieldErrors = {};
  for (const [raw, message] of Object.entries(errors)) {
    const path = raw.replace(/^patch\./, '');
    out[path] ??= worded(path, message);
  }
  return out;
}

/** The fields in the order the form shows them: the first with an error is focused. */
export function firstErrorField(errors: BillFieldErrors): string | null {
  const keys = Object.keys(errors).filter((k) => errors[k]);
  const rank = (k: string) => {
    const order = ['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'currency', 'line_items', 'amount', 'memo'];
    const line = /^line_items\.(\d+)\.(\w+)/.exec(k);
    if (line) return 5 + Number(line[1]) / 1000 + ['po_line_id', 'description', 'quantity', 'unit_price', 'amount', 'gl_account_id', 'department_id'].indexOf(line[2]!) / 1e6;
    const i = order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  return keys.sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

export type CreateResult = { ok: true; input: Record<string, unknown> } | { ok: false; errors: BillFieldErrors };

/** A new bill's `bill.create` input (with its client id; `submit` sends it for approval), or why not. */
export function createBillInput(v: BillFormValues, opts: { id: string; submit: boolean }): CreateResult {
  const { memo, ...fields } = billFields(v);
  const input = { ...fields, ...(memo ? { memo } : {}), id: opts.id, submit: opts.submit };
  const parsed = commandDef('bill.create').args.safeParse(input);
  if (!parsed.success) return { ok: false, errors: billFormErrors(validationMessages(parsed.error as z.ZodError, input)) };
  const data = parsed.data as Parameters<typeof validateBill>[0] & { line_items: Parameters<typeof billPoLineErrors>[0]; currency: string };
  const errors = { ...validateBill(data), ...billPoLineErrors(data.line_items, data.currency) };
  if (Object.keys(errors).length > 0) return { ok: false, errors: billFormErrors(errors) };
  return { ok: true, input: parsed.data as Record<string, unknown> };
}

export type UpdateResult =
  | { ok: true; patch: BillPatch | null }
  | { ok: false; errors: BillFieldErrors; message?: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The edit of a bill: only the fields that changed (the lines replace all, so they are sent only
 * when one changed), `submit` to send a draft or a fixed rejected bill for approval; checked with
 * the command's schema, the status rules (`checkBillPatch`: its message when a field may not
 * change now) and `validateBill` over the patched bill, as the server does. `patch` is null when
 * nothing changed and nothing is submitted.
 */
export function updateBillPatch(bill: Bill, v: BillFormValues, submit: boolean): UpdateResult {
  const before = billFields(billValues(bill));
  const after = billFields(v);
  const patch: Record<string, unknown> = {};
  for (const key of ['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'currency', 'line_items'] as const) {
    if (!same(before[key], after[key])) patch[key] = after[key];
  }
  if (before.memo !== after.memo) patch.memo = after.memo === '' ? null : after.memo;
  if (before.purchase_order_id !== after.purchase_order_id) patch.purchase_order_id = after.purchase_order_id ?? null;
  if (bill.invoice_file_id !== v.invoice_file_id) patch.invoice_file_id = v.invoice_file_id;
  if (submit) patch.submit = true;
  if (Object.keys(patch).length === 0) return { ok: true, patch: null };
  const def = commandDef('bill.update');
  const input = { bill_id: bill.id, patch };
  const parsed = def.args.safeParse(input);
  if (!parsed.success) return { ok: false, errors: billFormErrors(validationMessages(parsed.error as z.ZodError, input)) };
  const checked = (parsed.data as { patch: BillPatch }).patch;
  const allowed = checkBillPatch(checked, bill.status);
  if (!allowed.ok) return { ok: false, errors: {}, message: allowed.message };
  const next = def.apply(bill, parsed.data) as Bill;
  const errors = { ...validateBill({ ...next, amount: undefined }), ...billPoLineErrors(next.line_items, next.currency) };
  if (Object.keys(errors).length > 0) return { ok: false, errors: billFormErrors(errors) };
  return { ok: true, patch: checked };
}

// ---------------------------------------------------------------- vendors

/** The lines with the vendor's default GL account and department where a line has none yet. */
export function withVendorDefaults(lines: readonly BillLineValues[], vendor: Pick<Vendor, 'default_gl_account_id' | 'default_department_id'> | null): BillLineValues[] {
  if (!vendor) return [...lines];
  return lines.map((l) => ({
    ...l,
    gl_account_id: l.gl_account_id || (vendor.default_gl_account_id ?? ''),
    department_id: l.department_id || (vendor.default_department_id ?? ''),
  }));
}
// ---------------------------------------------------------------- vendor credits

/** A vendor credit the bill may draw on, and how much of it this bill can take. */
export interface CreditOffer {
  credit: Pick<VendorCredit, 'id' | 'vendor_id' | 'currency' | 'remaining' | 'credit_note_number' | 'credit_date' | 'memo'>;
  available: number;
}

/**
 * The credit applied from an offer: all of it that the bill can take, never more than what is
 * left of the credit, and never the whole bill (a bill must total more than zero after credits,
 * so it keeps the smallest unit of its currency to pay). Null when there is nothing to take it
 * from yet (no line amounts, or credits already cover the bill). `capped`: less than the credit had.
 */
export function applyCredit(v: BillFormValues, offer: CreditOffer): { credit: BillCreditValues; capped: boolean } | null {
  const totals = billTotals(v);
  if (!totals.complete) return null;
  const room = totals.total - 1;
  if (room <= 0) return null;
  const take = Math.min(offer.available, room);
  return {
    credit: { vendor_credit_id: offer.credit.id, description: `Vendor credit ${offer.credit.credit_note_number}`, amount: amountText(take, v.currency) },
    capped: take < offer.available,
  };
}

// ---------------------------------------------------------------- templates

/** billTemplateCreateSchema's limit on a name. */
export const TEMPLATE_NAME_MAX = 200;

export type TemplateResult = { ok: true; body: z.output<typeof billTemplateCreateSchema> } | { ok: false; errors: BillFieldErrors };

/**
 * The form's vendor, currency, lines and memo saved as a template under `name` (credits left out:
 * one bill takes a credit, not every bill made from the template), checked with the create
 * call's schema and the bill's own line rules, as the server does (domain/bill-templates.ts).
 */
export function templateInput(v: BillFormValues, name: string): TemplateResult {
  const memo = v.memo.trim();
  const input = { name, vendor_id: trimmed(v.vendor_id), currency: v.currency, line_items: lineInputs(v.lines, v.currency, { for: 'template' }), ...(memo ? { memo } : {}) };
  const parsed = billTemplateCreateSchema.safeParse(input);
  const errors: BillFieldErrors = parsed.success ? {} : billFormErrors(validationMessages(parsed.error as z.ZodError, input));
  if (errors.name) errors.name = name.trim() === '' ? 'Name the template.' : `A template name can be at most ${TEMPLATE_NAME_MAX} characters.`;
  if (!parsed.success) return { ok: false, errors };
  // The lines' rules (no negative line, a total above zero), in validateBill's words.
  const lineRules = validateBill({ ...parsed.data, invoice_number: 'template', invoice_date: '2000-01-01', due_date: '2000-01-01' });
  const kept = Object.fromEntries(Object.entries(lineRules).filter(([k]) => k === 'amount' || k.startsWith('line_items')));
  if (Object.keys(kept).length > 0) return { ok: false, errors: billFormErrors(kept) };
  return { ok: true, body: parsed.data };
}

/** The person's local calendar date (YYYY-MM-DD): a new bill's invoice date is their today. */
export const localToday = (now = new Date()) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

