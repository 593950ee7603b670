/**
 * `usePdfText()`: what a form calls with a PDF to read its text on this device. pdf.js is
 * imported on the first `read`, never with the form (pdf-reader.ts). The text goes to the form's
 * own parser (statement lines, invoice fields); the person checks what is filled.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReadPdfFileOptions } from './pdf-reader.ts';
import { MAX_SCAN_PAGES, PdfReadError, pdfFailureText, pdfLimitText, type PdfProgress, type PdfReading } from './read-pdf.ts';

export type PdfTextState =
  | { status: 'idle' }
  | { status: 'reading'; progress: PdfProgress | null }
  | { status: 'done'; reading: PdfReading }
  | { status: 'failed'; message: string };

export type PdfTextOutcome =
  | { ok: true; reading: PdfReading; /** What was left unread, in words, or null. */ limits: string | null }
  | { ok: false; /** "This PDF could not be read on this device: …" */ message: string };

export interface PdfReadOptions {
  /** The upload limit in bytes: a larger file is read from its first pages only (and says so). */
  maxBytes?: number;
}

export interface UsePdfText {
  state: PdfTextState;
  /** Reads the PDF; resolves with the outcome (also in `state`), or null when a later read or reset superseded it. */
  read(file: Blob, opts?: PdfReadOptions): Promise<PdfTextOutcome | null>;
  reset(): void;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The reading's limits in words, the upload limit first. */
export function limitsText(reading: PdfReading, overLimit: number | null): string | null {
  const limits = pdfLimitText(reading);
  if (overLimit === null) return limits;
  const first = `The file is over the ${megabytes(overLimit)} upload limit, so only its first pages were read here and it cannot be uploaded as it is.`;
  return limits ? `${first} ${limits}` : first;
}

/** "Reading page 3 of 12 of the PDF on this device…" / "Reading scanned page 1 of 3 on this device… 45%". */
export function pdfProgressText(progress: PdfProgress | null): string {
  if (!progress) return 'Opening the PDF on this device…';
  if (progress.step === 'text') return `Reading page ${progress.page} of ${progress.pages} of the PDF on this device…`;
  return `Reading scanned page ${progress.page} of ${progress.pages} on this device… ${Math.round(progress.progress * 100)}%`;
}

export function usePdfText(): UsePdfText {
  const [state, setState] = useState<PdfTextState>({ status: 'idle' });
  const generation = useRef(0);
  useEffect(
    () => () => {
      generation.current += 1; // unmounted: late results are dropped
    },
    [],
  );

  const read = useCallback(async (file: Blob, opts: PdfReadOptions = {}): Promise<PdfTextOutcome | null> => {
    const mine = ++generation.current;
    const current = () => generation.current === mine;
    setState({ status: 'reading', progress: null });
    const overLimit = opts.maxBytes !== undefined && file.size > opts.maxBytes ? opts.maxBytes : null;
    const limits: ReadPdfFileOptions = overLimit !== null ? { maxPages: MAX_SCAN_PAGES } : {};
    try {
      const { readPdfFile } = await import('./pdf-reader.ts').catch((cause: unknown) => {
        throw new PdfReadError('unavailable', { cause });
      });
      const reading = await readPdfFile(file, {
        ...limits,
        onProgress: (progress) => {
          if (current()) setState({ status: 'reading', progress });
        },
      });
      if (!current()) return null;
      setState({ status: 'done', reading });
      return { ok: true, reading, limits: limitsText(reading, overLimit) };
    } catch (error) {
      if (!current()) return null;
      const message = pdfFailureText(error);
      setState({ status: 'failed', message });
      return { ok: false, message };
    }
  }, []);

  const reset = useCallback(() => {
    generation.current += 1;
    setState({ status: 'idle' });
  }, []);

  return { state, read, reset };
}
