import { describe, expect, it } from 'vitest';
import { loadMigrations } from './db/migrate.ts';
import { openTestDb, testDatabases } from './test-db.ts';

/** Test databases are copies of templates (test-templates.ts): complete, and independent of each other. */
describe.each(await testDatabases())('template test databases on %s', (kind) => {
  it('a migrated copy has every migration and no rows; a bare one has no tables; copies do not share rows', async () => {
    const a = await openTestDb(kind);
    const b = await openTestDb(kind);
    const bare = await openTestDb(kind, { migrated: false });
    try {
      const applied = (await a.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
      expect(applied).toEqual((await loadMigrations()).map((m) => m.name));
      expect(await a.db.query('SELECT id FROM businesses')).toEqual([]);
      const tables = await bare.db.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
      expect(tables).toEqual([]);
      await a.db.query("INSERT INTO businesses (id, name, currency) VALUES ('00000000-0000-4000-8000-0000000000a1', 'Only in A', 'USD')");
      expect(await b.db.query('SELECT id FROM businesses')).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await bare.close();
    }
  });
});
