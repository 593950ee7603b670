import type { z } from 'zod';
import {
  createManualAccount, deleteBankAccount, deleteStatement, getStatement, getStatementFile, listBankAccounts, listEntityCashAccounts,
  listStatements, putEntityCashAccount, putStatementLines, revealBankAccount, startDebitCheck, updateBankAccount, uploadStatement,
  verifyDebitCheck, STATEMENT_CONTENT_TYPES, STATEMENT_MAX_BYTES,
  type BankStatement, type LinkedBankAccount, type entityCashAccountSchema, type manualAccountBodySchema, type statementLineSchema,
} from '../../schema/api/calls-banking.ts';
import {
  acceptFlexOffer, createFlexOffer, getFlexSettings, listFlexRecords, onboardFlex, retryInstallmentPayment, updateFlexSettings,
  type FlexRecord, type flexInstallmentSchema, type flexOfferSchema, type flexSettingsSchema,
} from '../../schema/api/calls-float.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import { linkedOf } from '../../schema/entities/bank-account.ts';
import type { ReferenceMaps } from '../reference-cache.ts';
import { errorBody } from '../../schema/errors.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/**
 * Issue 30, banking links and flex (schema/api/calls-banking.ts, calls-float.ts): direct calls,
 * online only (nothing of them is queued: money and bank numbers never wait on a device). The
 * linked bank accounts are mirrored (reference data `bank_accounts`, admins only): online the
 * list is the server's answer, and the mirror catches up by the feed; offline (or when the server
 * cannot be reached) it is the mirror's rows, marked with when the mirror last synced, across
 * reloads. The numbers' changes and reveal need the `sensitive` scope: a `step_up` answer, as vendors'.
 */
export const BANKING_OFFLINE = offlineFailure('You’re offline. Bank accounts need a connection: nothing was sent, and what you entered is still here.');
export const FLEX_OFFLINE = offlineFailure('You’re offline. Flex needs a connection: nothing was sent.');

export type { BankStatement, FlexRecord, LinkedBankAccount };
export type BankStatementSummary = Omit<BankStatement, 'lines'>;
export type ManualAccountBody = z.input<typeof manualAccountBodySchema>;
export type BankAccountPatch = Partial<Omit<ManualAccountBody, 'currency'>>;
export type StatementLine = z.output<typeof statementLineSchema>;
export type StatementLinesBody = { period_start?: string | null; period_end?: string | null; lines: StatementLine[] };
export type RevealedLinkedAccount = CallResponse<typeof revealBankAccount>;
export type EntityCashAccount = z.output<typeof entityCashAccountSchema>;
export type EntityCashAccountBody = Pick<EntityCashAccount, 'bank_account_id' | 'wallet_account_id' | 'gl_account_id'>;
export type FlexSettings = z.output<typeof flexSettingsSchema>;
export type FlexOffer = z.output<typeof flexOfferSchema>;
export type FlexInstallment = z.output<typeof flexInstallmentSchema>;

/**
 * The bank list: the server's answer (`cached_at` null), or offline the mirror's rows with when the
 * mirror last synced; the offline refusal when there is no mirror or it never synced.
 */
export type BankAccountsAnswer = { ok: true; accounts: LinkedBankAccount[]; cached_at: string | null } | OnlineFailure;

/** What the offline bank list reads: the open mirror's reference rows and when it last synced. */
export interface BankMirror {
  /** The open mirror (null: signed out, or not open yet). */
  runtime(): { readonly refs: { readonly maps: Pick<ReferenceMaps, 'bank_accounts'> }; readonly referencesLoaded: Promise<void>; readonly ready: Promise<void> } | null;
  lastSyncedAt(): Promise<string | null>;
}

/** The server's order (created_at, then id), so the list reads the same offline. */
const byCreated = (a: LinkedBankAccount, b: LinkedBankAccount) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The mirror's bank accounts as the list answers them, or null when the mirror cannot tell (none open, never synced). */
async function mirroredList(mirror: BankMirror): Promise<{ accounts: LinkedBankAccount[]; cached_at: string } | null> {
  const rt = mirror.runtime();
  if (!rt) return null;
  // Not `ready`: reference rows load first, and the list must not wait for 100k transactions.
  await Promise.race([rt.referencesLoaded, rt.ready]);
  const at = await mirror.lastSyncedAt();
  if (!at) return null;
  return { accounts: [...rt.refs.maps.bank_accounts.values()].map(linkedOf).sort(byCreated), cached_at: at };
}

const account = (a: LinkedBankAccount) => ({ account: a });
const statement = (s: BankStatement) => ({ statement: s });
const idParam = (id: string) => ({ params: { id } });

/** A statement file is checked as the server checks it (type and size) before anything is sent. */
export function checkStatementFile(type: string, size: number): { ok: true; contentType: (typeof STATEMENT_CONTENT_TYPES)[number] } | OnlineFailure {
  const known = (STATEMENT_CONTENT_TYPES as readonly string[]).includes(type);
  if (!known || size <= 0 || size > STATEMENT_MAX_BYTES) return { ok: false, error: errorBody('BANKING_7005').error_v2 };
  return { ok: true, contentType: type as (typeof STATEMENT_CONTENT_TYPES)[number] };
}

function fileOf<C extends CallDef, A extends unknown[]>(def: C, opts: (...args: A) => CallOptions<C>) {
  return custom((_send, port, offline) => async (...args: A): Promise<{ ok: true; file: Blob } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(def, opts(...args)), offline);
    return r.ok ? { ok: true, file: r.data } : r;
  });
}

function bankingCalls(mirror: BankMirror) {
  return onlineDomain(BANKING_OFFLINE, {
    bankAccounts: custom((_send, port, offline) => async (): Promise<BankAccountsAnswer> => {
      if (port.hub.online) {
        const res = await port.requireHttp().call(listBankAccounts, {});
        // A read may fall back on any network failure (sent or not: it changes nothing); the rest is the server's answer.
        if (res.ok || (res.kind !== 'network' && res.kind !== 'timeout')) {
          const r = answerOf(port, res, offline);
          return r.ok ? { ok: true, accounts: r.data.accounts, cached_at: null } : r;
        }
      }
      const kept = await mirroredList(mirror);
      return kept ? { ok: true, ...kept } : offline;
    }),
    /** Sensitive (step-up). 201 UNVERIFIED. */
    linkBankAccount: via(createManualAccount, (body: ManualAccountBody, idempotencyKey?: string) =>
      ({ body, ...(idempotencyKey ? { idempotencyKey } : {}) }), account),
    /** Sensitive (step-up). New numbers reset verification. */
    updateBankAccount: via(updateBankAccount, (id: string, patch: BankAccountPatch) => ({ ...idParam(id), body: patch }), account),
    /** The full numbers, sensitive (step-up); never kept by the worker. */
    revealBankAccount: via(revealBankAccount, (id: string) => idParam(id), (numbers) => ({ numbers })),
    deleteBankAccount: via(deleteBankAccount, (id: string) => idParam(id)),
    startDebitCheck: via(startDebitCheck, (id: string, idempotencyKey?: string) => ({ ...idParam(id), ...(idempotencyKey ? { idempotencyKey } : {}) }), account),
    verifyDebitCheck: via(verifyDebitCheck, (id: string, amounts: [number, number]) => ({ ...idParam(id), body: { amounts } }), account),
    /** The file checked first (BANKING_7005 without sending), then sent raw with its type. */
    uploadStatement: custom((send, port, offline) => async (bankAccountId: string, file: Blob, fileName: string, idempotencyKey?: string) => {
      if (!port.hub.online) return offline;
      const check = checkStatementFile(file.type, file.size);
      if (!check.ok) return check;
      const r = await send(uploadStatement, {
        query: { bank_account_id: bankAccountId, file_name: fileName.trim().slice(0, 200) || 'statement' },
        file: { body: file, contentType: check.contentType },
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      return r.ok ? { ok: true as const, statement: r.data } : r;
    }),
    statements: via(listStatements, (bankAccountId?: string) => ({ query: bankAccountId ? { bank_account_id: bankAccountId } : {} }),
      (d) => ({ statements: d.data })),
    statement: via(getStatement, (id: string) => idParam(id), statement),
    statementFile: fileOf(getStatementFile, (id: string) => idParam(id)),
    /** Replaces the statement's lines; the answer carries the server's matches per line. */
    saveStatementLines: via(putStatementLines, (id: string, body: StatementLinesBody) => ({ ...idParam(id), body }), statement),
    deleteStatement: via(deleteStatement, (id: string) => idParam(id)),
    entityCashAccounts: via(listEntityCashAccounts, () => ({}), (d) => ({ cash_accounts: d.data })),
    saveEntityCashAccount: via(putEntityCashAccount, (entityId: string, body: EntityCashAccountBody) =>
      ({ params: { entity_uuid: entityId }, body }), (cash_account) => ({ cash_account })),
  });
}

/** Flex (float): onboarding, settings, offers for a bill, accepting one term, records and their installments. */
export const FLEX_CALLS = onlineDomain(FLEX_OFFLINE, {
  flexSettings: via(getFlexSettings, () => ({}), (settings) => ({ settings })),
  onboardFlex: via(onboardFlex, (apClerksCanFlex?: boolean) =>
    ({ body: { accept_terms: true as const, ...(apClerksCanFlex === undefined ? {} : { ap_clerks_can_flex: apClerksCanFlex }) } }), (settings) => ({ settings })),
  saveFlexSettings: via(updateFlexSettings, (apClerksCanFlex: boolean) => ({ body: { ap_clerks_can_flex: apClerksCanFlex } }), (settings) => ({ settings })),
  flexOffer: via(createFlexOffer, (billId: string) => ({ body: { bill_id: billId } }), (offer) => ({ offer })),
  /** Pays the vendor from the flex line: one key per confirmation, so a retry after a lost answer is the same acceptance. */
  acceptFlexOffer: via(acceptFlexOffer, (offerId: string, termDays: 30 | 60 | 90, idempotencyKey?: string) =>
    ({ params: { offer_id: offerId }, body: { term_days: termDays }, ...(idempotencyKey ? { idempotencyKey } : {}) }), (record) => ({ record })),
  flexRecords: via(listFlexRecords, (billId?: string) => ({ query: billId ? { bill_id: billId } : {} }), (d) => ({ records: d.data })),
  retryFlexInstallment: via(retryInstallmentPayment, (installmentId: string, idempotencyKey?: string) =>
    ({ params: { flex_installment_payment_uuid: installmentId }, ...(idempotencyKey ? { idempotencyKey } : {}) }), (installment) => ({ installment })),
});

export type BankingApi = OnlineApi<ReturnType<typeof bankingCalls>>;
export type FlexApi = OnlineApi<typeof FLEX_CALLS>;

/** What the banking handlers read of the worker's context: the online port and the open mirror. */
export interface BankingPort extends OnlinePort {
  readonly host: { readonly runtime: ReturnType<BankMirror['runtime']> };
}

/** `clock`: when the mirror last synced (handlers/status.ts `syncClock`, shared with Settings → Offline data). */
export const bankingHandlers = (port: BankingPort, clock: Pick<BankMirror, 'lastSyncedAt'>): BankingApi & FlexApi => ({
  ...bindDomain(port, bankingCalls({ runtime: () => port.host.runtime, lastSyncedAt: () => clock.lastSyncedAt() })),
  ...bindDomain(port, FLEX_CALLS),
});
