import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { patchTransaction } from '../../schema/api/calls.ts';
import { updateUser } from '../../schema/api/calls-admin.ts';
import { updateBill } from '../../schema/api/calls-bills.ts';
import { updateCard } from '../../schema/api/calls-cards.ts';
import { patchReimbursement } from '../../schema/api/calls-reimbursements.ts';
import { updateVendor } from '../../schema/api/calls-vendors.ts';
import { updateExpensePolicy } from '../../schema/api/calls-expense-policies.ts';
import { openTestDb, testDatabases } from '../test-db.ts';
import { CONFLICT_FIELDS, conflictTable, type ConflictCollection } from './conflicts.ts';

const PATCHES: Record<ConflictCollection, { body: z.ZodType | null }> = {
  transactions: patchTransaction,
  reimbursements: patchReimbursement,
  bills: updateBill,
  cards: updateCard,
  vendors: updateVendor,
  users: updateUser,
  expense_policies: updateExpensePolicy,
};

/** The trigger each table of the map needs and its arguments, as migration 033 must spell them. */
function expectedTriggers() {
  const out = new Map<string, { args: string[]; perRow: boolean }>();
  for (const [collection, spec] of Object.entries(CONFLICT_FIELDS) as [ConflictCollection, (typeof CONFLICT_FIELDS)[ConflictCollection]][]) {
    const own = conflictTable(collection);
    for (const [field, f] of Object.entries(spec.fields)) {
      const table = f.table ?? own;
      // The rows' own table: one statement trigger; a child table: a per-row one naming the parent.
      const entry = out.get(table) ?? { args: f.table ? [collection, own, f.key ?? 'id'] : [collection], perRow: Boolean(f.table) };
      entry.args.push(`${field}=${f.columns.join(',')}`);
      out.set(table, entry);
    }
  }
  return out;
}

describe('the conflict map', () => {
  it.each(Object.keys(PATCHES) as ConflictCollection[])('names every top-level field of the %s PATCH body, as a field or an action', (collection) => {
    const body = PATCHES[collection].body as unknown as { shape?: Record<string, unknown> };
    expect(body?.shape).toBeDefined();
    const spec = CONFLICT_FIELDS[collection];
    expect(new Set(Object.keys(body.shape!))).toEqual(new Set([...Object.keys(spec.fields), ...(spec.actions ?? [])]));
  });
});

describe.each(await testDatabases())('migration 033 on %s', (kind) => {
  it('has one field-change trigger per table of the map, with exactly its arguments', async () => {
    const test = await openTestDb(kind);
    try {
      const rows = await test.db.query<{ table: string; args: Uint8Array; def: string }>(
        `SELECT c.relname AS table, t.tgargs AS args, pg_get_triggerdef(t.oid) AS def
           FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE t.tgname LIKE '%\\_field\\_changes' ESCAPE '\\'`,
      );
      const found = new Map(rows.map((r) => {
        const args = Buffer.from(r.args).toString('utf8').split('\0').filter((a) => a !== '');
        return [r.table, { args, def: r.def }];
      }));
      const expected = expectedTriggers();
      expect([...found.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [table, want] of expected) {
        const got = found.get(table)!;
        expect(got.args, table).toEqual(want.args);
        // Every UPDATE (no column list: transition tables allow none), per statement; a child's at commit.
        if (want.perRow) expect(got.def, table).toMatch(/AFTER (DELETE OR UPDATE|UPDATE OR DELETE) ON .+ DEFERRABLE INITIALLY DEFERRED FOR EACH ROW/);
        else expect(got.def, table).toMatch(/AFTER UPDATE ON \S+ REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows FOR EACH STATEMENT/);
      }
    } finally {
      await test.close();
    }
  });
});
