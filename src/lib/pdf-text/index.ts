/**
 * On-device PDF reading (issue 30): `usePdfText()` (lazy: importing this file loads no pdf.js)
 * and the pure pieces. pdf.js is reached only through the dynamic import in use-pdf-text.ts.
 */
export { usePdfText, pdfProgressText, limitsText, type PdfTextState, type PdfTextOutcome, type UsePdfText, type PdfReadOptions } from './use-pdf-text.ts';
export { MAX_SCAN_PAGES, MAX_TEXT_PAGES, pdfFailureText, pdfLimitText, PdfReadError, type PdfReading, type PdfProgress } from './read-pdf.ts';
export { linesFromItems, linesFromRuns, type PdfTextRun } from './text-lines.ts';
