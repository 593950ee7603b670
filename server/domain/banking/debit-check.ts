import { randomInt } from 'node:crypto';
import { MAX_DEBIT_CHECK_ATTEMPTS, type LinkedBankAccount } from '../../../schema/api/calls-banking.ts';
import type { Queryable } from '../../db/db.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import { decryptBankValue, encryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import type { MailDeps } from '../../auth/email-otp.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { foldEmail } from '../../auth/email-address.ts';
import { bankAccountContext, findBankAccount, maskNumber, toWire } from './bank-accounts.ts';

/**
 * Debit check of a linked bank account (issue 30): two micro-deposits of 1–99 cents each are
 * "sent" to it (no bank is reachable here: the amounts are drawn, stored encrypted and mailed),
 * and the admin proves they own the account by typing both (any order). Three wrong answers make
 * it FAILED (start again to get new deposits). Every step locks the bank account's row, so two
 * racing answers count two attempts and one success, never more.
 *
 * The mail (template `bank_debit_check`): the server log and the real mail say only "Two small deposits … were sent to …"; the
 * development mailbox (LEDGERLINE_DEV_OUTBOX=1) also carries the amounts, so the demo and an
 * end-to-end test can read them (tests may call `readMicroDeposits`).
 */
type Deposits = [number, number];

function seal(key: Buffer, id: string, deposits: Deposits): string {
  return encryptBankValue(key, JSON.stringify(deposits), bankAccountContext(id, 'micro_deposits'));
}

/** The two deposits of a PENDING_VERIFICATION account, in cents (a test helper; never answered). */
export async function readMicroDeposits(db: Queryable, businessId: string, id: string): Promise<Deposits | null> {
  const rows = await db.query<{ micro_deposits_enc: string | null }>(
    'SELECT micro_deposits_enc FROM bank_accounts WHERE business_id = $1 AND id = $2', [businessId, id],
  );
  const sealed = rows[0]?.micro_deposits_enc;
  if (!sealed) return null;
  const key = await loadVendorBankKey(db);
  return JSON.parse(decryptBankValue(key, sealed, bankAccountContext(id, 'micro_deposits'))) as Deposits;
}

const cents = (n: number) => `0.${String(n).padStart(2, '0')}`;

/** UNVERIFIED or FAILED → PENDING_VERIFICATION with two new deposits; PENDING answers as it is; VERIFIED → BANKING_7003. */
export async function startDebitCheck(tx: Queryable, user: ActingUser, id: string, mail: MailDeps, now: Date): Promise<LinkedBankAccount> {
  const account = await findBankAccount(tx, user.business_id, id, 'write');
  if (account.status === 'VERIFIED') throw new ApiError('BANKING_7003', 'This bank account is already verified.');
  if (account.status === 'PENDING_VERIFICATION') return toWire(account);
  const deposits: Deposits = [randomInt(1, 100), randomInt(1, 100)];
  const key = await loadVendorBankKey(tx);
  await tx.query(
    `UPDATE bank_accounts SET status = 'PENDING_VERIFICATION', micro_deposits_enc = $3, verify_attempts = 0,
            verification_started_at = $4, updated_at = $4
      WHERE business_id = $1 AND id = $2`,
    [user.business_id, id, seal(key, id, deposits), now.toISOString()],
  );
  const [me] = await tx.query<{ email: string }>(
    'SELECT i.email FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE u.id = $1', [user.id],
  );
  if (me) {
    const label = `${account.bank_name || account.name} ${maskNumber(account.account_last4)}`;
    // The dev outbox's copy alone names the amounts (the e2e test reads them there); the mail does not.
    await enqueueMail(mail, tx, {
      to: foldEmail(me.email), template: 'bank_debit_check', values: { account: label, currency: account.currency },
      devOutboxNote: `Development mailbox only: the deposits are ${cents(deposits[0])} and ${cents(deposits[1])} ${account.currency}.`,
    });
  }
  return toWire(await findBankAccount(tx, user.business_id, id));
}

/**
 * The two amounts (cents, any order). Right → VERIFIED. Wrong → BANKING_7002 with the attempts
 * left in `errors.amounts`, or, the third time, FAILED and BANKING_7003. Not pending → BANKING_7003.
 * A wrong answer is *answered*, not thrown: its counted attempt must commit.
 */
export async function verifyDebitCheck(
  tx: Queryable, businessId: string, id: string, amounts: readonly [number, number], now: Date,
): Promise<LinkedBankAccount | ApiError> {
  const account = await findBankAccount(tx, businessId, id, 'write');
  if (account.status !== 'PENDING_VERIFICATION' || !account.micro_deposits_enc) {
    const why = {
      VERIFIED: 'This bank account is already verified.',
      FAILED: 'Too many wrong amounts: this debit check is locked. Start a new debit check to get new deposits.',
      UNVERIFIED: 'No debit check is running for this bank account. Start one first.',
      PENDING_VERIFICATION: undefined,
    }[account.status];
    throw new ApiError('BANKING_7003', why);
  }
  const key = await loadVendorBankKey(tx);
  const sent = JSON.parse(decryptBankValue(key, account.micro_deposits_enc, bankAccountContext(id, 'micro_deposits'))) as Deposits;
  const sorted = (p: readonly number[]) => [...p].sort((a, b) => a - b).join(',');
  if (sorted(sent) === sorted(amounts)) {
    await tx.query(
      `UPDATE bank_accounts SET status = 'VERIFIED', verified_at = $3, micro_deposits_enc = NULL, updated_at = $3
        WHERE business_id = $1 AND id = $2`,
      [businessId, id, now.toISOString()],
    );
    return toWire(await findBankAccount(tx, businessId, id));
  }
  const attempts = account.verify_attempts + 1;
  const left = MAX_DEBIT_CHECK_ATTEMPTS - attempts;
  if (left <= 0) {
    await tx.query(
      `UPDATE bank_accounts SET status = 'FAILED', verify_attempts = $3, micro_deposits_enc = NULL, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [businessId, id, attempts, now.toISOString()],
    );
    return new ApiError('BANKING_7003', 'Those amounts do not match, and that was the last attempt: this debit check is locked. Start a new debit check to get new deposits.', {
      amounts: 'no attempts left',
    });
  }
  await tx.query(
    'UPDATE bank_accounts SET verify_attempts = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
    [businessId, id, attempts, now.toISOString()],
  );
  return new ApiError('BANKING_7002', undefined, { amounts: `${left} ${left === 1 ? 'attempt' : 'attempts'} left` });
}
