import { afterEach, describe, expect, it } from 'vitest';
import { checkSchema } from 'rxdb/plugins/dev-mode';
import type { RxJsonSchema } from 'rxdb';
import { MIRRORED_COLLECTIONS } from '../schema/sync-feed.ts';
import { mirrorJsonSchema } from '../schema/mirror.ts';
import { mirrorDbName, type MirrorDatabase } from './db.ts';
import { openTestDatabase } from './test-fixtures.ts';

describe('mirror JSON schemas derived from the zod entities', () => {
  for (const collection of MIRRORED_COLLECTIONS) {
    it(`${collection} passes RxDB's own schema check`, () => {
      const schema = mirrorJsonSchema(collection);
      expect(schema.primaryKey).toBe('id');
      expect(schema.properties.id).toMatchObject({ type: 'string', maxLength: 36 });
      expect(schema.required).toContain('id');
      // Dev-mode's checker, run here rather than shipped (dev-mode injects an iframe in browsers).
      expect(() => checkSchema(schema as unknown as RxJsonSchema<unknown>)).not.toThrow();
      for (const field of schema.indexes.flat()) {
        const prop = schema.properties[field]!;
        expect(schema.required, `${field} is indexed, so required`).toContain(field);
        if (prop.type === 'string') expect(prop.maxLength).toBeTypeOf('number');
        if (prop.type === 'number' || prop.type === 'integer') {
          expect(prop).toMatchObject({ minimum: expect.any(Number), maximum: expect.any(Number), multipleOf: expect.any(Number) });
        }
      }
    });
  }

  it('indexes transactions only for the newest-first cold-start read', () => {
    expect(mirrorJsonSchema('transactions').indexes).toEqual(['occurred_desc']);
    expect(mirrorJsonSchema('transactions').properties.occurred_desc).toMatchObject({ type: 'number', multipleOf: 1 });
  });
});

describe('openMirrorDatabase', () => {
  let db: MirrorDatabase | null = null;
  afterEach(async () => {
    await db?.close();
  });

  it('opens nine collections, far under the 13-collection limit', async () => {
    db = await openTestDatabase();
    expect(Object.keys(db.collections).sort()).toEqual([...MIRRORED_COLLECTIONS, 'meta', 'outbox'].sort());
  });

  it('names a database per business and user', () => {
    const a = mirrorDbName('0B0B0B0B-0000-4000-8000-000000000001', 'aaaa');
    expect(a).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(a).not.toBe(mirrorDbName('0B0B0B0B-0000-4000-8000-000000000001', 'bbbb'));
  });
});
