/** The inbox's URL state: the tab (`matched`; "To match" is the default and never written). */
export interface ReceiptsSearch {
  tab?: 'matched';
}

export function parseReceiptsSearch(raw: Record<string, unknown>): ReceiptsSearch {
  return raw.tab === 'matched' ? { tab: 'matched' } : {};
}
