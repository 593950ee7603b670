import type { ErrorV2 } from '../../schema/errors.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import type { MatchCandidate, ReceiptExtracted } from '../../schema/receipt-matching.ts';
import type { ReceiptMatch } from '../receipt-store.ts';
import type { CommandResult } from './views.ts';

/** A file picked or dropped in the UI, handed to the worker as is (a Blob crosses Comlink by reference). */
export interface ReceiptFileInput {
  name: string;
  type: string;
  file: Blob;
}

export type AddReceiptResult =
  /** `added`: stored now (false: the same bytes were already on this device, as that receipt). */
  | { ok: true; name: string; receipt_id: string; added?: boolean }
  | { ok: false; name: string; error: ErrorV2['error_v2'] };

/**
 * A receipt as the UI shows it. `state`: `local` (on this device, waiting to upload),
 * `uploading`, `uploaded`, `failed` (refused: `error` says why; the file stays on the device), or
 * `remote` (attached elsewhere: not on this device, no thumbnail). Blobs, not URLs: the UI makes
 * (and revokes) the object URLs.
 */
export interface ReceiptView {
  /** The id asked for: a client id or the server's id (a transaction's receipt_ids hold either). */
  id: string;
  local_id: string | null;
  server_id: string | null;
  name: string;
  content_type: string | null;
  size: number | null;
  sha256: string | null;
  created_at: string | null;
  state: 'local' | 'uploading' | 'uploaded' | 'failed' | 'remote';
  error: string | null;
  thumbnail: Blob | null;
}

/** A transaction as a receipt's match names it. */
export type MatchedTransaction = Pick<Transaction, 'id' | 'merchant_name' | 'amount' | 'currency' | 'occurred_at'>;

/** A matcher candidate with the transaction it names, as the mirror shows it now. */
export type ReceiptSuggestion = MatchCandidate & { transaction: MatchedTransaction };

export type { ReceiptMatch } from '../receipt-store.ts';

/**
 * A receipt of this device in the Receipts inbox: its view, its fields, the transaction it is
 * attached to (any visible transaction whose `receipt_ids` name it), the inbox's own match and,
 * while unattached, the matcher's candidates computed over the mirror as it is now (best first).
 */
export interface InboxReceipt extends ReceiptView {
  extracted: ReceiptExtracted | null;
  match: ReceiptMatch | null;
  attached_to: MatchedTransaction | null;
  suggestions: ReceiptSuggestion[];
}

export type SetReceiptFieldsResult =
  | { ok: true; receipt: InboxReceipt; exact: boolean }
  | { ok: false; error: ErrorV2['error_v2'] };

/** Receipts on the device (issue 9 §2; handlers/receipts.ts, workers/receipt-store.ts). */
export interface ReceiptApi {
  /**
   * Checks each file against the upload call's limits (type, size: refused with UPLOAD_7101 /
   * 7103 / 7104 and nothing stored), keeps it on the device with its sha256 and thumbnail,
   * queues its upload and, with `attach`, its attachment to that transaction. Offline-first:
   * resolves once durable locally. The same bytes twice are one receipt.
   */
  addReceipts(files: ReceiptFileInput[], attach?: { transaction_id: string }): Promise<AddReceiptResult[]>;
  /** The receipts named (client or server ids), in order; unknown here → `remote`. */
  receipts(ids: string[]): Promise<ReceiptView[]>;
  /**
   * The full file of a receipt: from this device, else (a server id: attached on another device)
   * fetched from the server and kept here like `fetchReceipt`; null when it cannot be had.
   */
  receiptFile(id: string): Promise<Blob | null>;
  /**
   * A receipt stored on the server but not on this device (attached on another device, e.g. the
   * claim a manager reviews): fetched with the session's token, kept in the device's receipt
   * store (so it shows offline afterwards, `state: 'uploaded'`) and answered with its thumbnail.
   * One already here is answered from here. When it cannot be fetched the view stays `remote`
   * with `error` saying why ('Not available offline', or the server's refusal).
   */
  fetchReceipt(id: string): Promise<ReceiptView>;
  /** Removes a receipt from this device (and its upload, unless it is being sent). */
  deleteLocalReceipt(id: string): Promise<CommandResult>;
  /** Every receipt on this device, newest first, with fields, attachment and suggestions (the inbox). */
  receiptInbox(): Promise<InboxReceipt[]>;
  /**
   * Stores a receipt's fields (OCR's reading or the person's typing; checked with
   * `receiptExtractedSchema`, REQUEST_7001 otherwise) and matches it over the mirror: the owner's
   * visible PENDING/CLEARED transactions without a receipt (schema/receipt-matching.ts). Stores
   * the suggestions; an exact match is attached at once (`transaction.attachReceipt`, offline
   * too) and recorded as `match.auto` — unless the receipt is attached already, or the person
   * undid a match and the fields did not change.
   */
  setReceiptFields(id: string, fields: ReceiptExtracted): Promise<SetReceiptFieldsResult>;
  /**
   * Matches again every receipt with fields that is attached nowhere and was never undone (its
   * charge may have posted since): suggestions refreshed, exact ones attached. Runs by itself in
   * the syncing tab a second after transactions change; answers how many it attached.
   */
  rematchReceipts(): Promise<number>;
  /** Attaches the receipt to a transaction the person picked in the inbox (`match.auto` false). */
  matchReceipt(id: string, transactionId: string): Promise<CommandResult>;
  /** Detaches an inbox match (the Undo of an automatic one); the receipt goes back to the inbox. */
  undoReceiptMatch(id: string): Promise<CommandResult>;
}
