import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { Pager } from '../components/pager.tsx';
import type { PageAnswer } from './paged-query.ts';
import { usePagedQuery, type PagedQuery } from './use-paged-query.ts';
import { fakeContainer, stubReactWithoutDom } from './test-react.ts';

stubReactWithoutDom();

type Row = { id: string };
type Call = { params: Record<string, string>; answer(a: PageAnswer<Row>): Promise<void> };

/** A fake worker: each load waits until the test answers it. */
function fakeServer() {
  const calls: Call[] = [];
  const load = (params: Record<string, string>) =>
    new Promise<PageAnswer<Row>>((resolve) => {
      calls.push({ params, answer: async (a) => act(async () => resolve(a)) });
    });
  return { calls, load, last: () => calls.at(-1)! };
}
const rows = (...ids: string[]) => ids.map((id) => ({ id }));
const page = (ids: string[], next: string | null): PageAnswer<Row> => ({ ok: true, rows: rows(...ids), next });

type Props = { search: Record<string, unknown>; online?: boolean; readOffline?: boolean };
let root: Root | null = null;
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = null;
});

function mount(server: ReturnType<typeof fakeServer>, first: Props) {
  const seen = {} as { q: PagedQuery<Row> };
  function Probe({ search, online = true, readOffline = false }: Props) {
    seen.q = usePagedQuery<Row>({ search, pageSize: 2, online, readOffline, load: server.load });
    return null;
  }
  root = createRoot(fakeContainer());
  act(() => root!.render(<Probe {...first} />));
  return { seen, rerender: (p: Props) => act(() => root!.render(<Probe {...p} />)) };
}

/** Reads pages 1 and 2 and stands on page 3 (its read waiting). */
async function toThirdPage(server: ReturnType<typeof fakeServer>, seen: { q: PagedQuery<Row> }) {
  await server.last().answer(page(['a', 'b'], 'c1'));
  act(() => seen.q.next());
  await server.last().answer(page(['c', 'd'], 'c2'));
  act(() => seen.q.next());
}

describe('usePagedQuery', () => {
  it('loading until the page comes (never an empty answer), then the rows; Next sends the cursor', async () => {
    const server = fakeServer();
    const { seen } = mount(server, { search: { q: '', kinds: ['x', 'y'] } });
    expect(seen.q.list).toEqual({ state: 'loading' });
    expect(seen.q.busy).toBe(true);
    expect(server.last().params).toEqual({ kinds: 'x,y', page_size: '2' });
    await server.last().answer(page(['a', 'b'], 'c1'));
    expect(seen.q.list).toMatchObject({ state: 'ready', rows: rows('a', 'b') });
    expect(seen.q).toMatchObject({ pageIndex: 0, hasPrev: false, hasNext: true, busy: false });
    act(() => seen.q.next());
    expect(seen.q.list.state).toBe('loading');
    expect(server.last().params).toEqual({ kinds: 'x,y', page_size: '2', start: 'c1' });
    await server.last().answer(page(['c'], null));
    expect(seen.q).toMatchObject({ pageIndex: 1, hasPrev: true, hasNext: false });
    act(() => seen.q.next()); // clamped: there is no page after the last
    expect(seen.q.pageIndex).toBe(1);
    act(() => seen.q.prev());
    expect(seen.q.pageIndex).toBe(0);
    expect(server.last().params).toEqual({ kinds: 'x,y', page_size: '2' });
  });

  it('a new search goes back to the first page', async () => {
    const server = fakeServer();
    const { seen, rerender } = mount(server, { search: { call: '' } });
    await toThirdPage(server, seen);
    expect(seen.q.pageIndex).toBe(2);
    rerender({ search: { call: 'transactions.patch' } });
    expect(seen.q.pageIndex).toBe(0);
    expect(seen.q.hasNext).toBe(false);
    expect(server.last().params).toEqual({ call: 'transactions.patch', page_size: '2' });
    rerender({ search: { call: 'transactions.patch' } }); // the same search again: nothing new is read
    expect(server.calls).toHaveLength(4);
  });

  it('a new page size goes back to the first page', async () => {
    const server = fakeServer();
    const { seen } = mount(server, { search: {} });
    await toThirdPage(server, seen);
    act(() => seen.q.setPageSize(50));
    expect(seen.q).toMatchObject({ pageIndex: 0, pageSize: 50 });
    expect(server.last().params).toEqual({ page_size: '50' });
  });

  it('a 422 for page 3 goes back to page 2 and says so; moving on clears the words', async () => {
    const server = fakeServer();
    const { seen } = mount(server, { search: {} });
    await toThirdPage(server, seen);
    await server.last().answer({ ok: false, error: { error_code: 'REQUEST_7001', message: 'start must be a valid cursor' } });
    expect(seen.q.pageIndex).toBe(1);
    expect(seen.q.notice).toBe('That page is no longer available; showing page 2');
    expect(seen.q.list.state).toBe('loading');
    expect(server.last().params).toEqual({ page_size: '2', start: 'c1' });
    await server.last().answer(page(['c', 'd'], null));
    expect(seen.q.list).toMatchObject({ state: 'ready', rows: rows('c', 'd') });
    expect(seen.q.hasNext).toBe(false);
    act(() => seen.q.prev());
    expect(seen.q.notice).toBeNull();
  });

  it('a 422 at the first page is the list\'s error', async () => {
    const server = fakeServer();
    const { seen } = mount(server, { search: {} });
    await server.last().answer({ ok: false, error: { error_code: 'REQUEST_7001', message: 'call must be one of the calls' } });
    expect(seen.q.list).toEqual({ state: 'error', message: 'call must be one of the calls' });
    expect(seen.q.notice).toBeNull();
  });

  it('offline asks nothing and says offline; back online it reads the page', async () => {
    const server = fakeServer();
    const { seen, rerender } = mount(server, { search: {}, online: false });
    expect(seen.q.list).toEqual({ state: 'offline' });
    expect(server.calls).toHaveLength(0);
    rerender({ search: {}, online: true });
    expect(seen.q.list.state).toBe('loading');
    await server.last().answer(page(['a'], null));
    expect(seen.q.list.state).toBe('ready');
  });

  it('readOffline: asks the worker offline (its copy, with readAt) and again when the connection comes back', async () => {
    const server = fakeServer();
    const { seen, rerender } = mount(server, { search: {}, online: false, readOffline: true });
    expect(seen.q.list.state).toBe('loading');
    await server.last().answer({ ok: true, rows: rows('kept'), next: null, readAt: 1_700_000_000_000 });
    expect(seen.q.list).toMatchObject({ state: 'ready', rows: rows('kept'), readAt: 1_700_000_000_000 });
    rerender({ search: {}, online: true, readOffline: true });
    expect(server.calls).toHaveLength(2);
    await server.last().answer(page(['fresh'], null));
    expect(seen.q.list).toEqual({ state: 'ready', rows: rows('fresh'), refreshing: false });
  });

  it('an answer that comes after the reader moved on is dropped', async () => {
    const server = fakeServer();
    const { seen, rerender } = mount(server, { search: { q: 'a' } });
    const stale = server.last();
    rerender({ search: { q: 'ab' } });
    await stale.answer(page(['old'], 'x'));
    expect(seen.q.list.state).toBe('loading');
    await server.last().answer(page(['new'], null));
    expect(seen.q.list).toMatchObject({ state: 'ready', rows: rows('new') });
  });
});

describe('Pager', () => {
  const base = { pageIndex: 1, pageSize: 50, hasPrev: true, hasNext: true, busy: false, notice: null as string | null, next() {}, prev() {}, setPageSize() {} };
  const html = (p: Partial<typeof base> & { total?: number }, sizes?: number[]) => renderToStaticMarkup(<Pager paged={{ ...base, ...p }} what="Runs" pageSizes={sizes} />);

  it('Previous · Page 2 · Next in a named navigation, the status region always there', () => {
    const out = html({});
    expect(out).toContain('<nav class="pager" aria-label="Runs pages">');
    expect(out).toContain('Page 2');
    expect(out).toMatch(/<p class="notice pager-notice" role="status"><\/p>/);
  });
  it('with a total: "51-100 of 240"', () => {
    expect(html({ total: 240 })).toContain('51-100 of 240');
  });
  it('the §8 notice as a status; buttons wait while a page is on its way', () => {
    const out = html({ notice: 'That page is no longer available; showing page 2', busy: true });
    expect(out).toContain('role="status">That page is no longer available; showing page 2</p>');
    expect(out.match(/disabled=""/g)).toHaveLength(2);
  });
  it('one page: no navigation; the sizes when offered', () => {
    expect(html({ pageIndex: 0, hasPrev: false, hasNext: false })).not.toContain('<nav');
    expect(html({}, [25, 50, 100])).toContain('Per page');
  });
});
