/**
 * pdf.js for Node (tests): the legacy build, whose "fake worker" runs the parser in-process.
 * Not imported by the app (the browser entry is pdf-reader.ts).
 */
import type { PdfJs } from './read-pdf.ts';

/** pdfjs-dist 6 declares Node >= 22.13; on our Node 20 the one missing piece is Promise.withResolvers. */
function polyfillWithResolvers(): void {
  const P = Promise as unknown as { withResolvers?: () => unknown };
  P.withResolvers ??= function withResolvers<T>() {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };
}

export async function nodePdfJs(): Promise<PdfJs> {
  polyfillWithResolvers();
  return (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
}
