import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseItem } from './sse.ts';

const enc = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      chunks.forEach((ch) => c.enqueue(ch));
      c.close();
    },
  });
}

async function collect(chunks: Uint8Array[]): Promise<SseItem[]> {
  const out: SseItem[] = [];
  for await (const item of readSse(streamOf(chunks))) out.push(item);
  return out;
}

const ev = (data: string, event = 'message', lastEventId = ''): SseItem => ({ type: 'event', event, data, lastEventId });

const CASES: [string, string, SseItem[]][] = [
  ['one event', 'event: seq\ndata: {"seq":5}\n\n', [ev('{"seq":5}', 'seq')]],
  ['default type message', 'data: hi\n\n', [ev('hi')]],
  ['multi-line data joined with LF', 'data: a\ndata:b\ndata:  c\n\n', [ev('a\nb\n c')]],
  ['CRLF line ends', 'event: seq\r\ndata: 1\r\n\r\n', [ev('1', 'seq')]],
  ['CR line ends', 'data: 1\rdata: 2\r\r', [ev('1\n2')]],
  ['comments', ': keep-alive\ndata: x\n\n', [{ type: 'comment', text: 'keep-alive' }, ev('x')]],
  ['id persists across events', 'id: 7\ndata: a\n\ndata: b\n\n', [ev('a', 'message', '7'), ev('b', 'message', '7')]],
  ['id with NUL is ignored', 'id: 1\0\ndata: a\n\n', [ev('a')]],
  ['retry digits only', 'retry: 2500\nretry: 1e3\nretry: -1\n', [{ type: 'retry', ms: 2500 }]],
  ['field without colon', 'data\n\n', [ev('')]],
  ['empty data line makes an empty event', 'data:\n\n', [ev('')]],
  ['no data: nothing dispatched, type reset', 'event: seq\n\ndata: y\n\n', [ev('y')]],
  ['unknown fields ignored', 'foo: bar\ndata: z\n\n', [ev('z')]],
  ['unterminated event dropped at end', 'data: a\n\ndata: partial\n', [ev('a')]],
  ['leading BOM stripped once', '\uFEFFdata: a\n\n', [ev('a')]],
  ['non-ASCII data', 'data: Zoë €5 ✓\n\n', [ev('Zoë €5 ✓')]],
  ['only one space stripped after colon', 'data:   x\n\n', [ev('  x')]],
];

describe('SSE parser', () => {
  it.each(CASES)('%s (whole)', async (_n, text, expected) => {
    expect(await collect([enc.encode(text)])).toEqual(expected);
  });

  it.each(CASES)('%s (split at every byte boundary)', async (_n, text, expected) => {
    const bytes = enc.encode(text);
    for (let i = 0; i <= bytes.length; i++) {
      expect(await collect([bytes.slice(0, i), bytes.slice(i)])).toEqual(expected);
    }
  });

  it.each(CASES)('%s (one byte per chunk)', async (_n, text, expected) => {
    const bytes = enc.encode(text);
    expect(await collect([...bytes].map((b) => Uint8Array.of(b)))).toEqual(expected);
  });

  it('treats CR then LF in separate pushes as one line end, and CR CR as a blank line', () => {
    const p = createSseParser();
    expect(p.push('data: a\r')).toEqual([]);
    expect(p.push('\n')).toEqual([]); // the LF belonged to the CR: no blank line
    expect(p.push('\r')).toEqual([ev('a')]);
    expect(p.push('\ndata: b\r\r')).toEqual([ev('b')]);
  });

  it('keeps a BOM that is not at the start', async () => {
    expect(await collect([enc.encode('data: a\uFEFF\n\n')])).toEqual([ev('a\uFEFF')]);
  });
});

describe('readSse', () => {
  it('ends when the signal aborts even if the body never does', async () => {
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(enc.encode('data: a\n\n')) });
    const ctrl = new AbortController();
    const seen: SseItem[] = [];
    const reading = (async () => {
      for await (const item of readSse(body, ctrl.signal)) seen.push(item);
    })();
    await new Promise((r) => setTimeout(r, 0));
    ctrl.abort();
    await reading;
    expect(seen).toEqual([ev('a')]);
  });
});
