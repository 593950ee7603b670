import { describe, expect, it } from 'vitest';
import { provisionalBillSchema } from '../entities/provisional-bill.ts';
import { billCreate } from './bill.ts';
import { commandDef } from './index.ts';
import { provisionalBillCreate, provisionalBillDelete, provisionalBillUpdate } from './provisional-bill.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-20T12:00:00.000Z';
const ACTOR = { user_id: id(2), business_id: id(9) };

const createArgs = (over: Record<string, unknown> = {}) => provisionalBillCreate.args.parse({ id: id(1), invoice_file_id: id(70), ...over });
const created = (over: Record<string, unknown> = {}) => {
  const args = createArgs(over);
  return provisionalBillCreate.apply(provisionalBillCreate.blank!(args, { id: args.id, actor: ACTOR, at: AT }), args);
};

describe('provisional bill commands', () => {
  it('create: the blank has the wire shape, holds the file and what was read, and is the actor’s', () => {
    const row = created({ invoice_number: ' INV-7 ', amount: 12_000, currency: 'USD', vendor_id: id(3) });
    expect(provisionalBillSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      id: id(1), invoice_file_id: id(70), invoice_number: 'INV-7', amount: 12_000, currency: 'USD', vendor_id: id(3), invoice_date: null,
      due_date: null, memo: null, created_by: ACTOR.user_id, business_id: ACTOR.business_id, created_at: AT, deleted: false,
    });
    // Nothing read yet: every field empty, as the server stores it.
    expect(created()).toMatchObject({ vendor_id: null, invoice_number: null, amount: null, currency: null });
  });

  it('create: its invoice kept on this device uploads first and the create names the server’s file id', () => {
    const args = createArgs();
    expect(provisionalBillCreate.entityIds(args)).toEqual([id(1)]);
    expect(provisionalBillCreate.after!(args)).toEqual([id(70)]);
    const serverId = (c: string) => (c === id(70) ? id(71) : undefined);
    expect(provisionalBillCreate.request(provisionalBillCreate.resolve!(args, serverId))).toEqual({ body: { id: id(1), invoice_file_id: id(71) } });
    // Not uploaded yet (or a server id already): sent as it is.
    expect(provisionalBillCreate.resolve!(args, () => undefined)).toEqual(args);
  });

  it('update: sets only the fields named, clears with null, an empty invoice number is none', () => {
    const row = created({ invoice_number: 'INV-7', amount: 12_000, currency: 'USD', memo: 'kept' });
    const args = provisionalBillUpdate.args.parse({ provisional_bill_id: id(1), patch: { invoice_number: '', due_date: '2026-12-01', amount: null } });
    expect(provisionalBillUpdate.request(args)).toEqual({ params: { provisional_bill_uuid: id(1) }, body: args.patch });
    expect(provisionalBillUpdate.apply(row, args)).toMatchObject({ invoice_number: null, due_date: '2026-12-01', amount: null, currency: 'USD', memo: 'kept' });
  });

  it('update: a change the rules refuse leaves the row as it is (the server refuses it by name)', () => {
    const row = created({ invoice_date: '2026-11-10' });
    const early = provisionalBillUpdate.args.parse({ provisional_bill_id: id(1), patch: { due_date: '2026-11-01' } });
    expect(provisionalBillUpdate.apply(row, early)).toBe(row);
    const noCurrency = provisionalBillUpdate.args.parse({ provisional_bill_id: id(1), patch: { amount: 500 } });
    expect(provisionalBillUpdate.apply(row, noCurrency)).toBe(row);
  });

  it('update and delete name a row the mirror shows; anything else is refused before queueing', () => {
    const has = (x: string) => x === id(1);
    expect(provisionalBillUpdate.check!({ provisional_bill_id: id(1), patch: {} }, { has })).toBeNull();
    expect(provisionalBillUpdate.check!({ provisional_bill_id: id(2), patch: {} }, { has })).toBe('REQUEST_7004');
    expect(provisionalBillDelete.check!({ provisional_bill_id: id(2) }, { has })).toBe('REQUEST_7004');
  });

  it('delete: a tombstone at once, confirmed by change seq; several ids are one call each, each once', () => {
    const row = created();
    expect(provisionalBillDelete.apply(row, { provisional_bill_id: id(1) })).toMatchObject({ id: id(1), deleted: true });
    expect(provisionalBillDelete.confirm).toBe('change_seq');
    const parts = provisionalBillDelete.split!.parts(provisionalBillDelete.split!.input.parse({ provisional_bill_ids: [id(1), id(2), id(1)] }));
    expect(parts.map((p) => [p.def.name, p.args])).toEqual([
      ['provisionalBill.delete', { provisional_bill_id: id(1) }],
      ['provisionalBill.delete', { provisional_bill_id: id(2) }],
    ]);
    expect(provisionalBillDelete.request({ provisional_bill_id: id(2) })).toEqual({ params: { provisional_bill_uuid: id(2) } });
    expect(provisionalBillDelete.split!.input.safeParse({ provisional_bill_ids: [] }).success).toBe(false);
  });

  it('are registered on the provisional bills (reference data)', () => {
    for (const name of ['provisionalBill.create', 'provisionalBill.update', 'provisionalBill.delete']) {
      expect(commandDef(name).collection).toBe('provisional_bills');
    }
  });

  it('bill.create with provisional_bill_id also deletes that provisional bill, at once', () => {
    const args = billCreate.args.parse({
      id: id(5), provisional_bill_id: id(1), vendor_id: id(3), invoice_number: 'INV-7', invoice_date: '2026-11-01', due_date: '2026-11-30',
      currency: 'USD', line_items: [{ description: 'Invoice total', amount: 12_000 }],
    });
    const also = billCreate.also!.provisional_bills!;
    expect(also.ids(args, { get: () => undefined, matching: () => [] })).toEqual([id(1)]);
    expect(also.apply(created(), args)).toMatchObject({ id: id(1), deleted: true });
    // The provisional bill's id goes with the body: the server consumes it in the same write.
    expect(billCreate.request(args)).toEqual({ body: expect.objectContaining({ id: id(5), provisional_bill_id: id(1) }) });
    // A bill created from nothing names no provisional bill.
    const plain = billCreate.args.parse({ ...args, provisional_bill_id: undefined });
    expect(also.ids(plain, { get: () => undefined, matching: () => [] })).toEqual([undefined]);
  });
});
