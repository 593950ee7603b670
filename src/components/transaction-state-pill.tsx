import type { TransactionState } from '../../schema/entities/transaction.ts';
import { StatusPill, type PillTone } from './status-pill.tsx';

/**
 * Card states in words that never collide with the sync words: an authorisation not yet
 * settled is "Authorized" (never "Pending", which people read as "not synced"). Shared by the
 * transactions list and a card's latest transactions.
 */
export const CARD_STATE_LABELS: Record<TransactionState, string> = {
  CLEARED: 'Cleared',
  PENDING: 'Authorized',
  DECLINED: 'Declined',
  REVERSED: 'Reversed',
};

const CARD_STATE_TONES: Record<TransactionState, PillTone> = {
  CLEARED: 'neutral',
  PENDING: 'info',
  DECLINED: 'danger',
  REVERSED: 'warn',
};

export function CardStatePill({ state }: { state: TransactionState }) {
  return <StatusPill tone={CARD_STATE_TONES[state]}>{CARD_STATE_LABELS[state]}</StatusPill>;
}
