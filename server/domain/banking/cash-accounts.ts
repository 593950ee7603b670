import type { z } from 'zod';
import type { entityCashAccountSchema } from '../../../schema/api/calls-banking.ts';
import type { Queryable } from '../../db/db.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';

/**
 * Each entity's cash account (issue 30): the linked bank account, the wallet account (a ledger
 * account of the wallet kinds) and the GL account its money is booked to. Every id must be the
 * business's and live (404 REQUEST_7004 naming the field otherwise); null clears one. A deleted
 * bank account leaves its mappings (bank_account_id cleared, bank-accounts.ts).
 */
type EntityCashAccount = z.infer<typeof entityCashAccountSchema>;

const COLUMNS = `entity_id, bank_account_id, wallet_account_id, gl_account_id,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at`;

export async function listEntityCashAccounts(db: Queryable, businessId: string): Promise<{ data: EntityCashAccount[] }> {
  const rows = await db.query<EntityCashAccount>(
    `SELECT ${COLUMNS} FROM entity_cash_accounts c
      WHERE c.business_id = $1 AND EXISTS (SELECT 1 FROM business_entities e WHERE e.id = c.entity_id AND NOT e.deleted)
      ORDER BY entity_id`,
    [businessId],
  );
  return { data: rows };
}

const CHECKS = {
  entity_id: ['SELECT 1 FROM business_entities WHERE business_id = $1 AND id = $2 AND NOT deleted', 'There is no such entity.'],
  bank_account_id: ['SELECT 1 FROM bank_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted FOR SHARE', 'There is no such bank account.'],
  wallet_account_id: [
    `SELECT 1 FROM ledger_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted AND kind IN ('OPERATING', 'RESERVE', 'INVESTMENT') FOR SHARE`,
    'There is no such wallet account.',
  ],
  gl_account_id: ['SELECT 1 FROM gl_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted', 'There is no such GL account.'],
} as const;

async function mustExist(db: Queryable, businessId: string, field: keyof typeof CHECKS, id: string | null): Promise<void> {
  if (id === null) return;
  const [sql, message] = CHECKS[field];
  if ((await db.query(sql, [businessId, id])).length === 0) throw new ApiError('REQUEST_7004', message, { [field]: message });
}

export async function putEntityCashAccount(
  tx: Queryable, user: ActingUser, entityId: string,
  body: { bank_account_id: string | null; wallet_account_id: string | null; gl_account_id: string | null }, now: Date,
): Promise<EntityCashAccount> {
  await mustExist(tx, user.business_id, 'entity_id', entityId);
  await mustExist(tx, user.business_id, 'bank_account_id', body.bank_account_id);
  await mustExist(tx, user.business_id, 'wallet_account_id', body.wallet_account_id);
  await mustExist(tx, user.business_id, 'gl_account_id', body.gl_account_id);
  const rows = await tx.query<EntityCashAccount>(
    `INSERT INTO entity_cash_accounts (business_id, entity_id, bank_account_id, wallet_account_id, gl_account_id, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (business_id, entity_id) DO UPDATE
       SET bank_account_id = EXCLUDED.bank_account_id, wallet_account_id = EXCLUDED.wallet_account_id,
           gl_account_id = EXCLUDED.gl_account_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [user.business_id, entityId, body.bank_account_id, body.wallet_account_id, body.gl_account_id, user.id, now.toISOString()],
  );
  return rows[0]!;
}
