import { isDeepStrictEqual } from 'node:util';
import { applyCodingPatch, CODING_FIELDS } from '../../schema/commands/transaction-code.ts';
import type { CodingPatch } from '../../schema/commands/coding-patch.ts';
import type { MirroredCollection } from '../../schema/collections.ts';
import type { FieldConflict } from '../../schema/errors.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS } from './collections.ts';

/**
 * Field-level merge of PATCHes sent with If-Match (issue 24 item 9, "no silent overwrite").
 *
 * Migration 033's triggers keep, per (row, PATCH body field), the latest change: its seq, the
 * spend user (null: a job) and the device. A PATCH whose base version is B conflicts on a field
 * it sends when that field's latest change has seq > B, came from another device, and the
 * server's value differs from the one sent. One conflict refuses the whole request (409
 * CONFLICT, nothing applied); otherwise it applies as without If-Match.
 *
 * `CONFLICT_FIELDS` is the one declarative map: per collection, each PATCH body field and the
 * columns whose change is a change of that field. The migration's trigger arguments spell the
 * same map (conflicts.test.ts checks they agree, and that every PATCH body field is mapped or
 * named an action).
 */
export type ConflictCollection = Extract<MirroredCollection, 'transactions' | 'reimbursements' | 'bills' | 'cards' | 'vendors' | 'users' | 'expense_policies'>;

type FieldSpec = {
  /** Columns of `table` (the collection's own unless given) whose change changes the field; `*`: any change of a row of `table`. */
  columns: readonly string[];
  /** A child table holding the field (bill lines), and its column naming the row. */
  table?: string;
  key?: string;
  /** The value as the PATCH body spells it, from the row's wire doc; default `doc[field]`. */
  bodyValue?: (doc: Record<string, unknown>) => unknown;
  /** Would sending `sent` leave `server` (both body-spelled) as it is? Default: deep equality. */
  unchanged?: (server: unknown, sent: unknown, doc: Record<string, unknown>) => boolean;
};

type CollectionSpec = {
  /** Extra jsonb merged into the collection's wire doc for fields the doc does not carry (alias r). */
  docExtraSql?: string;
  fields: Readonly<Record<string, FieldSpec>>;
  /** Body keys that are actions, not fields (never a conflict). */
  actions?: readonly string[];
};

const col = (name: string): FieldSpec => ({ columns: [name] });

/** A policy scope as stored: each department or role once. */
function distinctScope(sent: unknown): unknown {
  const s = sent as { kind?: string; department_ids?: string[]; roles?: string[] } | null;
  if (s?.kind === 'departments' && Array.isArray(s.department_ids)) return { ...s, department_ids: [...new Set(s.department_ids)] };
  if (s?.kind === 'roles' && Array.isArray(s.roles)) return { ...s, roles: [...new Set(s.roles)] };
  return sent;
}

/** Transactions: what the shared coding `apply` would do (memo '' is null; tracking merges by category). */
const coding = (name: keyof CodingPatch): FieldSpec => ({
  columns: [name],
  unchanged: (_server, sent, doc) => {
    const current = doc as Parameters<typeof applyCodingPatch>[0];
    return isDeepStrictEqual(applyCodingPatch(current, { [name]: sent } as CodingPatch)[name], current[name]);
  },
});

/** A bill line as the create/patch body takes it (schema/entities/bill.ts billLineInputSchema). */
function lineAsSent(line: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { description: line.description, amount: line.amount };
  for (const k of ['gl_account_id', 'department_id', 'location_id', 'vendor_credit_id', 'po_line_id', 'quantity', 'unit_price']) if (line[k] != null) out[k] = line[k];
  const tracking = line.tracking as Record<string, string> | undefined;
  if (tracking && Object.keys(tracking).length > 0) out.tracking = tracking;
  return out;
}

export const CONFLICT_FIELDS: Readonly<Record<ConflictCollection, CollectionSpec>> = {
  transactions: {
    // Every field of the coding patch (schema/commands/transaction-code.ts CODING_FIELDS), its column named as the field.
    fields: Object.fromEntries(CODING_FIELDS.map((f) => [f, coding(f)])),
  },
  reimbursements: {
    fields: Object.fromEntries(
      ['receipt_ids', 'memo', 'gl_account_id', 'department_id', 'merchant', 'amount', 'currency', 'transaction_date',
        'distance_miles', 'start_location', 'end_location', 'trip_date', 'location', 'start_date', 'end_date'].map((f) => [f, col(f)]),
    ),
  },
  bills: {
    fields: {
      vendor_id: col('vendor_id'),
      invoice_number: col('invoice_number'),
      invoice_date: col('invoice_date'),
      due_date: col('due_date'),
      currency: col('currency'),
      memo: col('memo'),
      entity_id: col('entity_id'),
      invoice_file_id: col('invoice_file_id'),
      // Issue 28 (migration 048): the purchase order the bill bills.
      purchase_order_id: col('purchase_order_id'),
      line_items: {
        columns: ['*'],
        table: 'bill_line_items',
        key: 'bill_id',
        bodyValue: (doc) => (doc.line_items as Record<string, unknown>[]).map(lineAsSent),
      },
    },
    actions: ['submit', 'confirm_duplicate'],
  },
  cards: {
    fields: {
      display_name: col('display_name'),
      limit: { columns: ['limit_amount', 'limit_currency', 'limit_interval', 'per_transaction_limit'] },
      allowed_categories: col('allowed_categories'),
      department_id: col('department_id'),
      location_id: col('location_id'),
    },
  },
  vendors: {
    fields: Object.fromEntries(
      ['name', 'email', 'phone', 'address', 'default_gl_account_id', 'default_department_id', 'status'].map((f) => [f, col(f)]),
    ),
  },
  // Issue 29 (migration 057): an expense policy's PATCH sends whole fields (`rules` and `scope` entire).
  expense_policies: {
    fields: {
      name: col('name'),
      description: col('description'),
      // Stored without repeated ids or roles (domain/expense-policies/policies.ts): a sent list with them is the same scope.
      scope: { columns: ['scope'], unchanged: (server, sent) => isDeepStrictEqual(server, distinctScope(sent)) },
      rules: col('rules'),
      enabled: col('enabled'),
    },
  },
  users: {
    // The mirrored user doc has no entity_id; the admin shape (admin.users.get) does.
    docExtraSql: `jsonb_build_object('entity_id', r.entity_id)`,
    fields: {
      manager_id: col('manager_id'),
      department_id: col('department_id'),
      location_id: col('location_id'),
      entity_id: col('entity_id'),
    },
  },
};

/** The table a collection's rows live in. */
export const conflictTable = (collection: ConflictCollection): string => COLLECTIONS[collection].table;

/** A row's change_seq (its version), or null when the business has no such row. */
export async function rowVersion(db: Queryable, collection: ConflictCollection, businessId: string, rowId: string): Promise<number | null> {
  const rows = await db.query<{ change_seq: number }>(
    `SELECT change_seq FROM ${conflictTable(collection)} WHERE id = $1 AND business_id = $2`,
    [rowId, businessId],
  );
  return rows[0] ? Number(rows[0].change_seq) : null;
}

type ChangeRow = {
  field: string;
  user_id: string | null;
  device_id: string | null;
  changed_at: string;
  first_name: string | null;
  last_name: string | null;
};

/**
 * The conflicts of a PATCH of `rowId` with `body` made against version `base` from `device`.
 * Takes the business row's lock first (the lock order of every writer: allocateSeqs), so two
 * PATCHes of one business are decided one after the other and the second sees the first's
 * committed history (the race test). Reads only: the caller refuses with them *after* the
 * handler has checked the caller may write the row (an invisible row answers 404, never a 409
 * that shows its values). Null when the business has no such row (the handler answers for it).
 */
export async function findConflicts(
  tx: Queryable,
  collection: ConflictCollection,
  businessId: string,
  rowId: string,
  body: Record<string, unknown>,
  base: number,
  device: string | null,
): Promise<{ conflicts: FieldConflict[]; version: number } | null> {
  const spec = CONFLICT_FIELDS[collection];
  await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR NO KEY UPDATE', [businessId]);
  const server = COLLECTIONS[collection];
  const docSql = spec.docExtraSql ? `(${server.docSql}) || ${spec.docExtraSql}` : server.docSql;
  const [row] = await tx.query<{ doc: Record<string, unknown>; change_seq: number }>(
    `SELECT ${docSql} AS doc, r.change_seq FROM ${server.table} r WHERE r.id = $1 AND r.business_id = $2`,
    [rowId, businessId],
  );
  if (!row) return null;
  const fields = Object.keys(body).filter((f) => Object.hasOwn(spec.fields, f) && body[f] !== undefined);
  if (fields.length === 0) return { conflicts: [], version: Number(row.change_seq) };
  const changes = await tx.query<ChangeRow>(
    `SELECT f.field, f.user_id, f.device_id, ll_iso(f.changed_at) AS changed_at, u.first_name, u.last_name
       FROM field_changes f LEFT JOIN spend_users u ON u.id = f.user_id
      WHERE f.collection = $1 AND f.row_id = $2 AND f.business_id = $3 AND f.seq > $4 AND f.field = ANY($5::text[])`,
    [collection, rowId, businessId, base, fields],
  );
  const conflicts: FieldConflict[] = [];
  for (const field of fields) {
    const change = changes.find((ch) => ch.field === field);
    if (!change) continue;
    if (device !== null && change.device_id === device) continue;
    const fieldSpec = spec.fields[field]!;
    const serverValue = fieldSpec.bodyValue ? fieldSpec.bodyValue(row.doc) : (row.doc[field] ?? null);
    const sent = body[field];
    const same = fieldSpec.unchanged ? fieldSpec.unchanged(serverValue, sent, row.doc) : isDeepStrictEqual(serverValue, sent);
    if (same) continue;
    conflicts.push({
      field,
      server_value: serverValue,
      your_value: sent,
      changed_by: change.user_id
        ? { user_id: change.user_id, name: [change.first_name, change.last_name].filter(Boolean).join(' ') }
        : null,
      changed_at: change.changed_at,
    });
  }
  return { conflicts, version: Number(row.change_seq) };
}

/** 409 CONFLICT with the fields and the row's version now (schema/errors.ts errorV2Schema). */
export class ConflictError extends ApiError {
  constructor(
    readonly conflicts: FieldConflict[],
    readonly currentVersion: number,
  ) {
    super('CONFLICT');
  }

  override get body() {
    const base = super.body;
    return { error_v2: { ...base.error_v2, conflicts: this.conflicts, current_version: this.currentVersion } };
  }
}
