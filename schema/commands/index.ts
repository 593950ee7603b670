import { transactionBulkCode, transactionCode } from './transaction-code.ts';

/** Every command by name: the outbox stores the name and looks the definition up here. */
export const COMMANDS = {
  [transactionCode.name]: transactionCode,
  [transactionBulkCode.name]: transactionBulkCode,
} as const;
export type CommandName = 'transaction.code' | 'transaction.bulkCode';
export { transactionCode, transactionBulkCode };
