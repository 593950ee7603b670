/**
 * A small, valid one-page PDF invoice (Helvetica text lines, a correct cross-reference table) for
 * tests that attach an invoice document: the bill form keeps and uploads a PDF and reads its text
 * on the device (src/lib/pdf-text). Different lines give different bytes, so each file is its own
 * receipt (the receipt store is content-addressed).
 */
export function invoicePdf(lines: readonly string[]): Buffer {
  // PDF string literals: parentheses and backslashes would need escaping; invoices here have none.
  if (lines.some((l) => /[()\\]/.test(l))) throw new Error('invoicePdf: no parentheses or backslashes in lines');
  const text = lines.map((l, i) => `BT /F1 14 Tf 72 ${720 - i * 22} Td (${l}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
