import { describe, expect, it } from 'vitest';
import { amountsIn, currencyIn, datesIn, parseReceiptText, type ParseReceiptOptions, type ReceiptFields } from './parse-receipt-text.ts';

const USD: ParseReceiptOptions = { defaultCurrency: 'USD', today: '2026-11-23' };
const EUR: ParseReceiptOptions = { defaultCurrency: 'EUR', today: '2026-11-23' };
const GBP: ParseReceiptOptions = { defaultCurrency: 'GBP', today: '2026-11-23' };
const CAD: ParseReceiptOptions = { defaultCurrency: 'CAD', today: '2026-11-23' };

/** Receipts as tesseract returns them: misread letters, ragged spacing, split columns. */
const CASES: { name: string; opts: ParseReceiptOptions; text: string; want: ReceiptFields }[] = [
  {
    name: 'US coffee shop: TOTAL over subtotal, tax and tip',
    opts: USD,
    text: `BLUE BOTTLE COFFEE\n66 Mint St, San Francisco CA\nTel 415-555-0134\n11/20/2026 08:14 AM\nOrder #4471\n1 Cappuccino 5.25\n1 Croissant 4.75\nSubtotal 10.00\nTax 8.625% 0.86\nTip 2.00\nTOTAL $12.86\nVISA **** 4242\nThank you!`,
    want: { amount: { minor: 1286, currency: 'USD' }, date: '2026-11-20', merchant: 'BLUE BOTTLE COFFEE' },
  },
  {
    name: 'cash handed over and change are larger than the total',
    opts: USD,
    text: `Whole Foods Market\n399 4th Street\nSALMON FILLET 24.75\nSUBTOTAL 84.37\nTOTAL $84.37\nCASH 100.00\nCHANGE 15.63\n2026-11-18 17:42`,
    want: { amount: { minor: 8437, currency: 'USD' }, date: '2026-11-18', merchant: 'Whole Foods Market' },
  },
  {
    name: 'French bistro: comma decimals, € after the amount, dotted date',
    opts: EUR,
    text: `CAFE DE FLORE\n172 Bd Saint-Germain\n75006 Paris\nTable 12 Couverts 2\n21.11.2026 13:05\n2 Cafe creme 9,40\n1 Croque monsieur 16,50\nTOTAL TTC 47,80 €\ndont TVA 10% 4,35\nCB SANS CONTACT 47,80`,
    want: { amount: { minor: 4780, currency: 'EUR' }, date: '2026-11-21', merchant: 'CAFE DE FLORE' },
  },
  {
    name: 'UK: £ amounts, "14 Nov 2026", VAT line',
    opts: GBP,
    text: `Pret A Manger\n1 Kingsway, London WC2B\nVAT No. 278 6432 53\n14 Nov 2026 12:31\nFlat White £3.45\nVAT 20% £2.08\nTotal £12.45\nContactless £12.45`,
    want: { amount: { minor: 1245, currency: 'GBP' }, date: '2026-11-14', merchant: 'Pret A Manger' },
  },
  {
    name: 'hotel: thousands separator, BALANCE DUE outranks Total charges, departure date',
    opts: USD,
    text: `HILTON GARDEN INN\nChicago Downtown\nArrival: Nov 1, 2026\nDeparture: Nov 3, 2026\nRoom charge x2 878.00\nTotal charges 1,234.56\nPayments 0.00\nBALANCE DUE USD 1,234.56`,
    want: { amount: { minor: 123456, currency: 'USD' }, date: '2026-11-03', merchant: 'HILTON GARDEN INN' },
  },
  {
    name: 'Canada: bare code after TOTAL, day-first slashes, store number trimmed',
    opts: CAD,
    text: `Tim Hortons #2231\n240 Queen St W, Toronto ON\n15/11/2026 07:52\nSubtotal 17.66\nHST 13% 2.30\nTOTAL CAD 19.96\nDebit 19.96`,
    want: { amount: { minor: 1996, currency: 'CAD' }, date: '2026-11-15', merchant: 'Tim Hortons' },
  },
  {
    name: 'German fuel: "Amount due EUR 76,23", price per litre ignored',
    opts: EUR,
    text: `SHELL STATION\nLeopoldstrasse 112\nDatum: 05.11.2026 Zeit: 18:20\n42,31 l x 1,799 EUR/l\nNetto 64,06\nMwSt 19% 12,17\nAmount due EUR 76,23\nGirocard 76,23`,
    want: { amount: { minor: 7623, currency: 'EUR' }, date: '2026-11-05', merchant: 'SHELL STATION' },
  },
  {
    name: 'a discount line is never the total; ambiguous 10/02 read month-first for USD',
    opts: USD,
    text: `STAPLES i\nStore 0412 Boston MA\n10/02/2026 3:47 PM\nPRINTER PAPER 5RM 54.95\nSAVINGS -10.00\nSUBTOTAL 97.43\nSALES TAX 6.25% 6.09\nTOTAL 103.52\nMASTERCARD 103.52`,
    want: { amount: { minor: 10352, currency: 'USD' }, date: '2026-10-02', merchant: 'STAPLES' },
  },
  {
    name: 'OCR noise: O for 0, a space after the point, T0TAL, stray marks around the name',
    opts: USD,
    text: `~ Uber .\nThanks for riding, Alex\nNov 9, 2026\nTrip fare $17.42\nTip $3.0O\nT0TAL $23. 18\n`,
    want: { amount: { minor: 2318, currency: 'USD' }, date: '2026-11-09', merchant: 'Uber' },
  },
  {
    name: 'a total whose amount OCR put on the next line',
    opts: GBP,
    text: `THE MARRIOTT COUNTY HALL\nInvoice date: 2026-11-01\nSubtotal £312.40\nAMOUNT DUE\n£312.40\n`,
    want: { amount: { minor: 31240, currency: 'GBP' }, date: '2026-11-01', merchant: 'THE MARRIOTT COUNTY HALL' },
  },
  {
    name: 'two totals around a tip: the larger',
    opts: USD,
    text: `NOBU MALIBU\n23 Oct 2026 9:12 PM\nTotal 1,314.00\nTip 240.00\nTotal 1,554.00`,
    want: { amount: { minor: 155400, currency: 'USD' }, date: '2026-10-23', merchant: 'NOBU MALIBU' },
  },
  {
    name: 'no total keyword: the largest amount with cents, not cash',
    opts: EUR,
    text: `Bäckerei Müller\n2 Brezeln 1,80\n1 Kaffee 2,90\n4,70\nBAR 10,00\nRückgeld 5,30`,
    want: { amount: { minor: 1000, currency: 'EUR' }, merchant: 'Bäckerei Müller' },
  },
  {
    name: 'yen has no minor unit',
    opts: { defaultCurrency: 'JPY', today: '2026-11-23' },
    text: `SUSHI ZEN\n2026/11/19\nTOTAL ¥3,480`,
    want: { amount: { minor: 3480, currency: 'JPY' }, date: '2026-11-19', merchant: 'SUSHI ZEN' },
  },
  {
    name: 'European thousands with dots: 1.234,56 €',
    opts: EUR,
    text: `Hotel Adlon\nGesamt 1.234,56 €\n02.11.2026`,
    want: { amount: { minor: 123456, currency: 'EUR' }, date: '2026-11-02', merchant: 'Hotel Adlon' },
  },
  {
    name: 'a $ receipt for a Canadian business is in CAD',
    opts: CAD,
    text: `Welcome to Loblaws\nTOTAL $45.10\n2026-11-20`,
    want: { amount: { minor: 4510, currency: 'CAD' }, date: '2026-11-20', merchant: 'Loblaws' },
  },
  {
    name: 'a future date (return by) is never the purchase date',
    opts: USD,
    text: `BEST BUY\n11/21/2026\nTOTAL $199.99\nReturn by 12/21/2026\n12/22/2026`,
    want: { amount: { minor: 19999, currency: 'USD' }, date: '2026-11-21', merchant: 'BEST BUY' },
  },
  {
    name: 'nothing readable',
    opts: USD,
    text: `~~ ..\n  \n|||`,
    want: {},
  },
];

describe('parseReceiptText', () => {
  it.each(CASES)('$name', ({ text, opts, want }) => {
    expect(parseReceiptText(text, opts)).toEqual(want);
  });
});

describe('amountsIn', () => {
  it.each([
    ['TOTAL $1,234.56', ['1234.56']],
    ['Summe 1.234,56', ['1234.56']],
    ["CHF 1'234.50", ['1234.50']],
    ['Tax 8.625% 0.86', ['0.86']],
    ['21.11.2026 13:05 47,80', ['47.80']],
    ['SAVINGS -10.00', []],
  ])('%s', (line, want) => {
    expect(amountsIn(line).filter((a) => a.hasCents).map((a) => a.decimal)).toEqual(want);
  });
});

describe('datesIn', () => {
  it.each([
    ['2026-11-18', 'mdy', ['2026-11-18']],
    ['11/23/2026', 'mdy', ['2026-11-23']],
    ['23.11.2026', 'mdy', ['2026-11-23']],
    ['03/04/2026', 'mdy', ['2026-03-04', '2026-04-03']],
    ['03/04/2026', 'dmy', ['2026-04-03', '2026-03-04']],
    ['Nov 23, 2026', 'mdy', ['2026-11-23']],
    ['23 Nov 2026', 'mdy', ['2026-11-23']],
    ['23rd November 2026', 'mdy', ['2026-11-23']],
    ['12. Okt 2026', 'dmy', ['2026-10-12']],
    ['31/02/2026', 'dmy', []],
    ['05/11/26', 'dmy', ['2026-11-05', '2026-05-11']],
  ] as const)('%s (%s)', (line, order, want) => {
    expect(datesIn(line, order)).toEqual(want);
  });
});

describe('currencyIn', () => {
  it.each([
    ['TOTAL $5.00', 'EUR', 'USD'],
    ['TOTAL $5.00', 'AUD', 'AUD'],
    ['47,80 €', 'USD', 'EUR'],
    ['BALANCE DUE USD 1.00', 'GBP', 'USD'],
    ['ALL ITEMS 5.00', 'USD', null],
    ['Total 5.00', 'USD', null],
  ])('%s with %s → %s', (text, def, want) => {
    expect(currencyIn(text, def)).toBe(want);
  });
});
