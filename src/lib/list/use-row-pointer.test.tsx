import { act, memo, useState, type MouseEvent } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRowPointer, type RowPointer } from './use-row-pointer.ts';
import { fakeContainer, stubReactWithoutDom } from '../test-react.ts';

stubReactWithoutDom();

interface Item { id: string }
const ITEMS: Item[] = Array.from({ length: 20 }, (_, i) => ({ id: `r${i}` }));

/** Renders of each row, by index. */
let renders: number[] = [];

interface RowProps {
  index: number;
  row: Item;
  active: boolean;
  selected: boolean;
  onRowClick: RowPointer<Item>['onRowClick'];
  onToggle: RowPointer<Item>['onToggle'];
}

/** As list-grid.tsx's memoized Row: booleans plus the pointer's handlers. */
const Row = memo(function Row({ index }: RowProps) {
  renders[index] = (renders[index] ?? 0) + 1;
  return null;
});

interface Handle {
  move(index: number): void;
  pointer: RowPointer<Item>;
}

/** A list as use-list-page.ts builds it: `active`, `selection`, `open` are new objects on every change. */
function List({ report, opened, toggled }: { report: (h: Handle) => void; opened: (row: Item, active: number) => void; toggled: (id: string, active: number) => void }) {
  const [activeIndex, setActive] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const active = { index: activeIndex, set: setActive };
  const selection = {
    ids: selected,
    range: async () => undefined,
    toggle: (_: number, id: string) => {
      toggled(id, activeIndex);
      setSelected((s) => new Set([...s, id]));
    },
  };
  const open = (row: Item) => opened(row, activeIndex);
  const pointer = useRowPointer<Item>(active, selection, open);
  report({ move: setActive, pointer });
  return (
    <>
      {ITEMS.map((row, index) => (
        <Row key={row.id} index={index} row={row} active={index === activeIndex} selected={selected.has(row.id)}
          onRowClick={pointer.onRowClick} onToggle={pointer.onToggle} />
      ))}
    </>
  );
}

let root: Root | null = null;
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = null;
  renders = [];
});

function mount() {
  const handle = {} as Handle;
  const report = (h: Handle) => Object.assign(handle, h);
  const opened = vi.fn();
  const toggled = vi.fn();
  root = createRoot(fakeContainer());
  act(() => root!.render(<List report={report} opened={opened} toggled={toggled} />));
  return { handle, opened, toggled };
}

describe('useRowPointer', () => {
  it('moving the active row (j/k) re-renders only the row it left and the row it reached', () => {
    const { handle } = mount();
    expect(renders.filter((n) => n === 1)).toHaveLength(ITEMS.length);
    const first = handle.pointer;
    act(() => handle.move(1));
    act(() => handle.move(2));
    // Row 0 (left), 1 (reached then left), 2 (reached): nothing else rendered again.
    expect(renders).toEqual([2, 3, 2, ...Array<number>(ITEMS.length - 3).fill(1)]);
    expect(handle.pointer.onRowClick).toBe(first.onRowClick);
    expect(handle.pointer.onToggle).toBe(first.onToggle);
  });

  it('the stable handlers act on the latest active row, selection and open', () => {
    const { handle, opened, toggled } = mount();
    act(() => handle.move(5));
    act(() => handle.pointer.onRowClick(7, ITEMS[7]!));
    // open() of the render after the move: it saw active 5 (the click's own set(7) comes after).
    expect(opened).toHaveBeenCalledWith(ITEMS[7], 5);
    act(() => handle.pointer.onToggle(3, ITEMS[3]!, false));
    expect(toggled).toHaveBeenCalledWith('r3', 7);
    act(() => handle.pointer.onRowClick(4, ITEMS[4]!, { metaKey: true } as MouseEvent));
    expect(toggled).toHaveBeenLastCalledWith('r4', 3);
    expect(opened).toHaveBeenCalledTimes(1);
  });
});
