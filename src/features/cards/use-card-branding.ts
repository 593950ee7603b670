import { useEffect, useSyncExternalStore } from 'react';
import { cardTextColor } from '../../../schema/card-branding.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';

/** The business's card branding as the card faces draw it: fill, legible text on it, the logo's object URL. */
export type CardLook = { color: string | null; text: string | null; logoUrl: string | null };

const NONE: CardLook = { color: null, text: null, logoUrl: null };
let look: CardLook = NONE;
let loaded: DataClient | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/**
 * Reads the branding (and the logo's bytes) once per client; again after Settings changes it.
 * Offline or refused: the default design (the cards still show, in their usual colours).
 */
export async function refreshCardBranding(client: DataClient): Promise<void> {
  loaded = client;
  const r = await client.cardBranding();
  if (!r.ok) return;
  const logo = r.branding.logo ? await client.cardLogo() : null;
  const file = logo?.ok ? logo.file : null;
  if (look.logoUrl) URL.revokeObjectURL(look.logoUrl);
  const color = r.branding.color;
  look = { color, text: color ? cardTextColor(color) : null, logoUrl: file ? URL.createObjectURL(file) : null };
  emit();
}

/** The branding for a card face (NONE until read). */
export function useCardBranding(): CardLook {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const current = useSyncExternalStore((l) => (listeners.add(l), () => void listeners.delete(l)), () => look);
  useEffect(() => {
    if (online && loaded !== client) void refreshCardBranding(client);
  }, [client, online]);
  return current;
}
