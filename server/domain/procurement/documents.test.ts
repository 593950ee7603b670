import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procurementDocumentSchema } from '../../../schema/api/calls-procurement.ts';
import { ApiError } from '../../core/errors.ts';
import { openTestDb, testDatabases, type TestDb } from '../../test-db.ts';
import { makeBusiness, type Fixture } from '../../test-fixtures.ts';
import { deleteDocument, deleteOwnerDocuments, listDocuments, readDocument, storeDocument } from './documents.ts';

/** The generic procurement document store: content checked, owner-scoped reads, tombstones. */
const PDF = new TextEncoder().encode('%PDF-1.7\nquote\n');
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe.each(await testDatabases())('procurement documents on %s', (kind) => {
  let t: TestDb;
  let a: Fixture;
  let b: Fixture;
  beforeAll(async () => {
    t = await openTestDb(kind);
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
  });
  afterAll(async () => t?.close());

  it('stores, lists, reads and tombstones a document of its owner only', async () => {
    const owner = { business_id: a.businessId, owner_type: 'spend_request' as const, owner_id: randomUUID() };
    const doc = await storeDocument(t.db, { ...owner, bytes: PDF, content_type: 'application/pdf', uploaded_by: a.users.employee });
    expect(procurementDocumentSchema.parse(doc)).toEqual(doc);
    expect(doc.size).toBe(PDF.length);
    const png = await storeDocument(t.db, { ...owner, bytes: PNG, content_type: 'image/png', uploaded_by: a.users.employee, at: '2030-01-01T00:00:00.000Z' });
    expect((await listDocuments(t.db, owner)).map((d) => d.id)).toEqual([doc.id, png.id]);
    const read = await readDocument(t.db, owner, doc.id);
    expect(Buffer.from(read!.bytes).toString()).toBe('%PDF-1.7\nquote\n');
    // Another owner, another owner type, another business: nothing.
    expect(await readDocument(t.db, { ...owner, owner_id: randomUUID() }, doc.id)).toBeNull();
    expect(await readDocument(t.db, { ...owner, owner_type: 'item_receipt' }, doc.id)).toBeNull();
    expect(await readDocument(t.db, { ...owner, business_id: b.businessId }, doc.id)).toBeNull();
    expect(await deleteDocument(t.db, { ...owner, business_id: b.businessId }, doc.id)).toBe(false);
    expect(await deleteDocument(t.db, owner, doc.id)).toBe(true);
    expect(await deleteDocument(t.db, owner, doc.id)).toBe(false);
    expect(await readDocument(t.db, owner, doc.id)).toBeNull();
    expect(await deleteOwnerDocuments(t.db, owner)).toEqual([png.id]);
    expect(await listDocuments(t.db, owner)).toEqual([]);
  });

  it('refuses content that is not what it declares, or is markup', async () => {
    const owner = { business_id: a.businessId, owner_type: 'item_receipt' as const, owner_id: randomUUID(), uploaded_by: a.users.admin };
    const code = async (bytes: Uint8Array, type: string) =>
      storeDocument(t.db, { ...owner, bytes, content_type: type }).then(() => 'stored', (e: unknown) => (e instanceof ApiError ? e.code : String(e)));
    expect(await code(PNG, 'application/pdf')).toBe('UPLOAD_7102');
    expect(await code(new TextEncoder().encode('%PDF-1.7 <html><script>x</script>'), 'application/pdf')).toBe('UPLOAD_7105');
    expect(await listDocuments(t.db, owner)).toEqual([]);
  });
});
