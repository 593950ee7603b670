import type { ReactNode } from 'react';

export type PillTone = 'neutral' | 'info' | 'ok' | 'warn' | 'danger' | 'sync';

export interface StatusPillProps {
  tone: PillTone;
  /** Shown as a tooltip (the reason behind a refusal, what a state means). */
  title?: string;
  children: ReactNode;
}

/**
 * A short state word in a pill. Card states and sync states keep distinct words, so one word
 * never means both: a card authorisation not yet settled is "Authorized"; an edit saved on this
 * device but not yet confirmed is "Waiting to sync".
 */
export function StatusPill({ tone, title, children }: StatusPillProps) {
  return (
    <span className={tone === 'neutral' ? 'pill' : `pill pill-${tone}`} title={title}>
      {children}
    </span>
  );
}
