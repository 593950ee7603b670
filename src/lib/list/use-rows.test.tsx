import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useRows, type ListRows, type RowsQuery } from './use-rows.ts';
import { fakeContainer, stubReactWithoutDom } from '../test-react.ts';

stubReactWithoutDom();

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
