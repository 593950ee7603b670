import { amountInWords } from '../../schema/payment-rails.ts';
import { formatMoney } from '../../schema/money.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';

/**
 * Issue 30: a mailed check's front and back as SVG, drawn on the server from the payment's row
 * (pure: data in, markup out). Every text that reaches the markup goes through `xmlText` (a vendor's
 * name is user input: `<script>` must arrive as text, never as markup), there is no script, no
 * link and no external reference, and the images travel as data URLs shown by <img>, where an SVG
 * runs nothing anyway.
 *
 * The MICR line is the US layout (ANSI X9.13): transit symbol, routing number, transit symbol,
 * account number, on-us symbol, check number; routing and account masked but for the last four,
 * so the image can be shared with the vendor without the business's full account numbers.
 */
export type CheckImageData = {
  checkNumber: number;
  /** The day it was mailed (YYYY-MM-DD). */
  date: string;
  amount: number;
  currency: string;
  payer: { name: string; bankName: string; routing: string; account: string };
  payee: { name: string; address: Pick<VendorAddress, 'line1' | 'line2' | 'city' | 'state' | 'postal_code' | 'country'> | null };
  /** The invoice the check pays (the memo line). */
  invoiceNumber: string;
  clearedAt: string | null;
  voidedAt: string | null;
};

/** Text safe inside SVG markup and attribute values: the five XML specials escaped, characters XML 1.0 forbids dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** `XXXXX6780`: every digit but the last four masked, the length kept. */
export const maskDigits = (digits: string): string => (digits.length <= 4 ? digits : 'X'.repeat(digits.length - 4) + digits.slice(-4));

/** At most `max` characters, with an ellipsis when cut (a long vendor name must not run off the check). */
const fit = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const W = 600;
const H = 276;
const FONT = `font-family="Helvetica, Arial, sans-serif"`;

function text(x: number, y: number, value: string, attrs = ''): string {
  return `<text x="${x}" y="${y}" ${attrs}>${xmlText(value)}</text>`;
}

function svg(body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img">`
    + `<title>${xmlText(title)}</title>`
    + `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="6" fill="#f4f8f6" stroke="#9bb5aa"/>`
    + `<g ${FONT} fill="#1d2b26">${body}</g></svg>`;
}

const addressLines = (a: CheckImageData['payee']['address']): string[] => (a
  ? [a.line1, ...(a.line2 ? [a.line2] : []), [a.city, [a.state, a.postal_code].filter(Boolean).join(' ')].join(', ')]
  : []);

/** The MICR line's characters: ⑆ transit, ⑈ on-us (E-13B symbols, Unicode OCR block). */
export const micrLine = (d: Pick<CheckImageData, 'payer' | 'checkNumber'>): string =>
  `⑆${maskDigits(d.payer.routing)}⑆ ${maskDigits(d.payer.account)}⑈ ${String(d.checkNumber).padStart(6, '0')}`;

export function checkFrontSvg(d: CheckImageData): string {
  const amount = formatMoney(d.amount, d.currency);
  const payee = addressLines(d.payee.address);
  const body = [
    text(24, 34, fit(d.payer.name, 40), 'font-size="15" font-weight="700"'),
    text(24, 52, d.payer.bankName, 'font-size="11" fill="#51645c"'),
    text(W - 24, 34, String(d.checkNumber), 'font-size="15" font-weight="700" text-anchor="end"'),
    text(W - 150, 64, 'Date', 'font-size="11" fill="#51645c"'),
    text(W - 24, 64, d.date, 'font-size="13" text-anchor="end"'),
    text(24, 104, 'PAY TO THE', 'font-size="9" fill="#51645c"'),
    text(24, 115, 'ORDER OF', 'font-size="9" fill="#51645c"'),
    text(90, 114, fit(d.payee.name, 48), 'font-size="15"'),
    '<line x1="88" y1="120" x2="450" y2="120" stroke="#9bb5aa"/>',
    `<rect x="462" y="96" width="114" height="28" rx="3" fill="#fff" stroke="#9bb5aa"/>`,
    text(569, 115, amount, 'font-size="15" font-weight="700" text-anchor="end"'),
    text(24, 148, fit(amountInWords(d.amount, d.currency), 80), 'font-size="12"'),
    '<line x1="24" y1="154" x2="576" y2="154" stroke="#9bb5aa"/>',
    ...payee.map((line, i) => text(90, 172 + i * 13, fit(line, 50), 'font-size="10" fill="#51645c"')),
    text(24, 226, 'Memo', 'font-size="10" fill="#51645c"'),
    text(60, 226, fit(`Invoice ${d.invoiceNumber}`, 40), 'font-size="12"'),
    '<line x1="58" y1="230" x2="280" y2="230" stroke="#9bb5aa"/>',
    '<line x1="360" y1="230" x2="576" y2="230" stroke="#9bb5aa"/>',
    text(576, 242, 'Authorized signature', 'font-size="9" fill="#51645c" text-anchor="end"'),
    text(W / 2, 266, micrLine(d), 'font-size="14" font-family="monospace" text-anchor="middle" letter-spacing="1"'),
    ...(d.voidedAt ? [text(W / 2, 150, 'VOID', 'font-size="96" font-weight="700" fill="#c0392b" fill-opacity="0.25" text-anchor="middle"')] : []),
  ].join('');
  return svg(body, `Check ${d.checkNumber} front`);
}

export function checkBackSvg(d: CheckImageData): string {
  const endorsed = d.clearedAt
    ? [
      text(40, 70, 'For deposit only', 'font-size="16" font-style="italic"'),
      text(40, 92, fit(d.payee.name, 40), 'font-size="14"'),
      text(40, 112, `Cleared ${d.clearedAt.slice(0, 10)}`, 'font-size="11" fill="#51645c"'),
    ]
    : [text(40, 80, d.voidedAt ? 'Voided before deposit' : 'Not yet deposited', 'font-size="12" fill="#51645c"')];
  const body = [
    '<rect x="24" y="24" width="260" height="110" rx="3" fill="none" stroke="#9bb5aa" stroke-dasharray="4 3"/>',
    text(32, 40, 'ENDORSE HERE', 'font-size="9" fill="#51645c"'),
    ...endorsed,
    '<line x1="24" y1="150" x2="284" y2="150" stroke="#51645c"/>',
    text(24, 164, 'DO NOT WRITE, STAMP OR SIGN BELOW THIS LINE', 'font-size="8" fill="#51645c"'),
    text(24, 178, 'RESERVED FOR FINANCIAL INSTITUTION USE', 'font-size="8" fill="#51645c"'),
    text(W - 24, H - 16, `Check ${d.checkNumber}`, 'font-size="10" fill="#51645c" text-anchor="end"'),
  ].join('');
  return svg(body, `Check ${d.checkNumber} back`);
}

/** An SVG as the data URL the API answers (base64: no character of the markup needs URL escaping). */
export const svgDataUrl = (markup: string): string => `data:image/svg+xml;base64,${Buffer.from(markup, 'utf8').toString('base64')}`;
