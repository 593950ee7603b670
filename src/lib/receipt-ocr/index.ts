/**
 * Receipt OCR for forms: `useReceiptOcr()` (lazy: importing this file loads no OCR code) and the
 * pure parser. tesseract.js is reached only through dynamic imports.
 */
export { useReceiptOcr, overallProgress, type ReceiptOcrState, type UseReceiptOcr } from './use-receipt-ocr.ts';
export { parseReceiptText, type ParseReceiptOptions, type ReceiptFields } from './parse-receipt-text.ts';
export type { OcrProgress, ReceiptOcrResult } from './ocr-engine.ts';
