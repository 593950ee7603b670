import { afterAll, beforeAll, vi } from 'vitest';

/**
 * React's client renderer with no DOM, for hook tests whose components render null: the only host
 * node is the root container, which needs no more than the listener methods React attaches its
 * event delegation with (and `window` no more than what React reads around an update).
 */
export function fakeContainer(): Element {
  const node = { nodeType: 1, nodeName: 'DIV', tagName: 'DIV', namespaceURI: 'http://www.w3.org/1999/xhtml', textContent: '', addEventListener() {}, removeEventListener() {} };
  return { ...node, ownerDocument: { ...node, nodeType: 9 } } as unknown as Element;
}

/** Stubs the globals React reads (act environment, `window.event`, the focused element) for the file's tests. */
export function stubReactWithoutDom(): void {
  beforeAll(() => {
    vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', true);
    vi.stubGlobal('window', { event: undefined, document: { activeElement: null }, HTMLIFrameElement: class {} });
  });
  afterAll(() => vi.unstubAllGlobals());
}
