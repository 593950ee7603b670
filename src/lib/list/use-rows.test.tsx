import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRows, type ListRows, type RowsQuery } from './use-rows.ts';

/** React with no DOM, as use-row-pointer.test.tsx: the component renders null. */
function fakeContainer(): Element {
  const node = { nodeType: 1, nodeName: 'DIV', tagName: 'DIV', namespaceURI: 'http://www.w3.org/1999/xhtml', textContent: '', addEventListener() {}, removeEventListener() {} };
  return { ...node, ownerDocument: { ...node, nodeType: 9 } } as unknown as Element;
}

beforeAll(() => {
  vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', true);
  vi.stubGlobal('window', { event: undefined, document: { activeElement: null }, HTMLIFrameElement: class {} });
});
afterAll(() => vi.unstubAllGlobals());

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

async function answered(query: Omit<RowsQuery<{ id: string }>, 'read' | 'what'>): Promise<ListRows<{ id: string }>> {
  let seen: ListRows<{ id: string }> | null = null;
  function Probe() {
    seen = useRows({ ...query, what: 'Cards', read: async () => ({ rows: [], total: 0 }) });
    return null;
  }
  root = createRoot(fakeContainer());
  await act(async () => root!.render(<Probe />));
  await act(async () => undefined);
  return seen!;
}

describe('useRows', () => {
  it("records the version its answer was read at: the query's version by default", async () => {
    expect((await answered({ key: 'k', version: 7 })).answeredVersion).toBe(7);
  });

  it('records the data version when the list follows another version beside it (cards: data + reference)', async () => {
    // Data version 5 and reference version 3: an empty answer read now predates a completion at data version 6.
    const rows = await answered({ key: 'k', version: 5 + 3, dataVersion: 5 });
    expect(rows.total).toBe(0);
    expect(rows.answeredVersion).toBe(5);
  });
});
