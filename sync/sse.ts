/**
 * A server-sent events parser after the WHATWG HTML spec, "Interpreting an event stream"
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * UTF-8 with an optional leading BOM; lines end in CRLF, LF or CR (a CR at the end of one chunk
 * and an LF at the start of the next are one line end); `:` starts a comment; fields `event`,
 * `data` (lines joined with LF), `id` (ignored when it holds NUL; persists across events) and
 * `retry` (ASCII digits only); a blank line dispatches; an unterminated event at the end is dropped.
 */
export interface SseEvent {
  type: 'event';
  event: string;
  data: string;
  lastEventId: string;
}
export type SseItem = SseEvent | { type: 'retry'; ms: number } | { type: 'comment'; text: string };

export interface SseParser {
  /** Feeds decoded text; returns what it completed. */
  push(text: string): SseItem[];
}

export function createSseParser(): SseParser {
  let buffer = '';
  let first = true;
  let skipLf = false;
  let data: string[] = [];
  let eventType = '';
  let lastEventId = '';

  function line(l: string, out: SseItem[]) {
    if (l === '') {
      if (data.length > 0) out.push({ type: 'event', event: eventType || 'message', data: data.join('\n'), lastEventId });
      data = [];
      eventType = '';
      return;
    }
    if (l.startsWith(':')) {
      out.push({ type: 'comment', text: l.slice(1).replace(/^ /, '') });
      return;
    }
    const colon = l.indexOf(':');
    const field = colon === -1 ? l : l.slice(0, colon);
    let value = colon === -1 ? '' : l.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') eventType = value;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) out.push({ type: 'retry', ms: Number(value) });
  }

  return {
    push(text) {
      const out: SseItem[] = [];
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (skipLf && text.startsWith('\n')) text = text.slice(1);
      if (text.length > 0) skipLf = false;
      buffer += text;
      // One pass with a moving index (slicing the rest per line would be quadratic in a big chunk).
      const lineEnd = /\r\n|\r|\n/g;
      let pos = 0;
      for (let m = lineEnd.exec(buffer); m !== null; m = lineEnd.exec(buffer)) {
        line(buffer.slice(pos, m.index), out);
        pos = m.index + m[0].length;
        // A CR as the last character: its LF, if any, arrives with the next chunk.
        if (m[0] === '\r' && pos === buffer.length) skipLf = true;
      }
      buffer = buffer.slice(pos);
      return out;
    },
  };
}

/**
 * Reads a byte stream (fetch body) as SSE items; ends when the stream ends, errors or the signal
 * aborts (cancelling the reader ourselves, so a transport that does not tie the body to the
 * request's signal cannot keep us waiting).
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseItem> {
  const reader = body.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder('utf-8');
  const parser = createSseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        yield* parser.push(decoder.decode());
        return;
      }
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Leaving early (the consumer stopped) must close the connection, not just our lock on it.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
