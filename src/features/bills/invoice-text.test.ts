import { describe, expect, it } from 'vitest';
import { parseInvoiceText, type InvoiceFields, type ParseInvoiceOptions } from './invoice-text.ts';

const USD: ParseInvoiceOptions = { defaultCurrency: 'USD', today: '2026-11-26' };
const EUR: ParseInvoiceOptions = { defaultCurrency: 'EUR', today: '2026-11-26' };
const GBP: ParseInvoiceOptions = { defaultCurrency: 'GBP', today: '2026-11-26' };

/** Invoices as tesseract returns them: headings, address blocks, split columns, ragged spacing. */
const CASES: { name: string; opts: ParseInvoiceOptions; text: string; want: InvoiceFields }[] = [
  {
    name: 'US supplier: "Invoice #", US dates, "Due Date", "Total Due" with a thousands separator',
    opts: USD,
    text: `Acme Office Supply Co.
1200 Market St, Suite 400
San Francisco, CA 94103
Tel 415-555-0100
INVOICE
Invoice # 10442
Invoice Date: 11/03/2026
Due Date: 12/03/2026
Bill To: Ledgerline Inc
55 Second St
Description Qty Amount
Printer paper, 40 cases 40 1,120.00
Toner cartridges 6 480.00
Subtotal 1,600.00
Sales tax 8.5% 136.00
Total Due $1,736.00`,
    want: {
      vendorName: 'Acme Office Supply Co.', invoiceNumber: '10442', invoiceDate: '2026-11-03', dueDate: '2026-12-03',
      total: { minor: 173600, currency: 'USD' },
    },
  },
  {
    name: '"Invoice No." with terms "Net 30": the due date follows the invoice date',
    opts: USD,
    text: `NORTHWIND TRADERS
Invoice No. NW-2026-0087
Date: October 15, 2026
Terms: Net 30
Consulting, October 12,500.00
Amount due USD 12,500.00`,
    want: {
      vendorName: 'NORTHWIND TRADERS', invoiceNumber: 'NW-2026-0087', invoiceDate: '2026-10-15', dueDate: '2026-11-14', termsDays: 30,
      total: { minor: 1250000, currency: 'USD' },
    },
  },
  {
    name: 'an unlabelled INV-1234 token, "Payment due" on its own line, Balance due',
    opts: USD,
    text: `Globex Cleaning Services
Ref INV-1234
Issued on 2026-11-01
Payment due 2026-11-15
Monthly office cleaning 950.00
Balance due $950.00`,
    want: {
      vendorName: 'Globex Cleaning Services', invoiceNumber: 'INV-1234', invoiceDate: '2026-11-01', dueDate: '2026-11-15',
      total: { minor: 95000, currency: 'USD' },
    },
  },
  {
    name: 'German invoice: day-first dotted dates, "Rechnungsnummer", comma decimals and dot thousands',
    opts: EUR,
    text: `Muller Buromobel GmbH
Hauptstrasse 5, 10115 Berlin
Rechnungsnummer: RE-2026-311
Rechnungsdatum: 04.11.2026
Fallig bis: 04.12.2026
Netto 2.100,00
MwSt 19% 399,00
Gesamt 2.499,00 EUR`,
    want: {
      vendorName: 'Muller Buromobel GmbH', invoiceNumber: 'RE-2026-311', invoiceDate: '2026-11-04', dueDate: '2026-12-04',
      total: { minor: 249900, currency: 'EUR' },
    },
  },
  {
    name: 'UK invoice: day-first slashes, label and value OCR\'d onto separate lines, £ total',
    opts: GBP,
    text: `Brightside Catering Ltd
VAT No. 278 6432 53
Invoice Number
BC-5521
Invoice Date
02/11/2026
Payment due within 14 days
Buffet for 40 1,480.00
VAT 20% 296.00
TOTAL £1,776.00`,
    want: {
      vendorName: 'Brightside Catering Ltd', invoiceNumber: 'BC-5521', invoiceDate: '2026-11-02', dueDate: '2026-11-16', termsDays: 14,
      total: { minor: 177600, currency: 'GBP' },
    },
  },
  {
    name: 'EU dash dates with "Invoice: 2026/77" and "Amount due" over the subtotal',
    opts: EUR,
    text: `Studio Verde SRL
Invoice: 2026/77
Date 21-10-2026
Due 20-11-2026
Design services 3.000,00
Subtotal 3.000,00
VAT 22% 660,00
Amount due 3.660,00 €`,
    want: {
      vendorName: 'Studio Verde SRL', invoiceNumber: '2026/77', invoiceDate: '2026-10-21', dueDate: '2026-11-20',
      total: { minor: 366000, currency: 'EUR' },
    },
  },
  {
    name: 'number and date on one line, "Payment due:" with a written date, a total in words and figures',
    opts: USD,
    text: `Initech Software, Inc.
Invoice No: INV-2026-0042   Date: Nov 16, 2026
Payment due: December 15, 2026
Annual license (12 months) 24,000.00
Discount -2,400.00
Total Due: USD 21,600.00`,
    want: {
      vendorName: 'Initech Software, Inc.', invoiceNumber: 'INV-2026-0042', invoiceDate: '2026-11-16', dueDate: '2026-12-15',
      total: { minor: 2_160_000, currency: 'USD' },
    },
  },
];

describe('parseInvoiceText', () => {
  it.each(CASES)('$name', ({ text, opts, want }) => {
    expect(parseInvoiceText(text, opts)).toEqual(want);
  });

  it('never takes the customer block for the vendor', () => {
    const read = parseInvoiceText('INVOICE\nBill to: Ledgerline Inc\nInvoice # 55\nTotal 10.00', USD);
    expect(read.vendorName).toBeUndefined();
    expect(read.invoiceNumber).toBe('55');
  });

  it('does not read "Invoice Date" as an invoice number, nor a due date before the invoice date', () => {
    const read = parseInvoiceText('Invoice Date: 11/20/2026\nDue Date: 11/02/2026\nTotal 10.00', USD);
    expect(read.invoiceNumber).toBeUndefined();
    expect(read.invoiceDate).toBe('2026-11-20');
    expect(read.dueDate).toBeUndefined();
  });

  it('answers nothing for text without invoice fields', () => {
    expect(parseInvoiceText('', USD)).toEqual({});
    expect(parseInvoiceText('hello world\n12', USD)).toEqual({ vendorName: 'hello world' });
  });
});
