import { DEFAULT_WALLET_SETTINGS, type WalletSettingsValues } from '../../../schema/treasury-rules.ts';
import type { TreasuryInvestment } from '../../../workers/api.ts';

/**
 * What this page session last read from the server (kept in memory, never stored): the wallet
 * settings the offline preview computes with, and the investment figures shown offline as of
 * their read.
 */
let settings: { values: WalletSettingsValues; at: number } | null = null;
let investments: { accounts: TreasuryInvestment[]; at: number } | null = null;

export const lastSettings = () => settings;
export const rememberSettings = (values: WalletSettingsValues, at = Date.now()) => {
  settings = { values, at };
};
/** The settings the offline preview uses: the last read, else the defaults (the preview says it is an estimate). */
export const previewSettings = (): WalletSettingsValues => settings?.values ?? DEFAULT_WALLET_SETTINGS;

export const lastInvestments = () => investments;
export const rememberInvestments = (accounts: TreasuryInvestment[], at = Date.now()) => {
  investments = { accounts, at };
};
