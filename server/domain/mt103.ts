import { minorToDecimal } from '../../schema/money.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';
import { maskDigits } from './check-image.ts';

/**
 * Issue 30: a wire's MT103 (SWIFT FIN single customer credit transfer), the payer's proof of a
 * wire, as text (pure: data in, text out). Layout per the SWIFT user handbook (FIN, MT103):
 *
 *   {1:F01<sender LT>0000000000}{2:I103<receiver LT>N}{3:{121:<UETR>}}{4:
 *   :20:<sender's reference, ≤16x, no leading/trailing '/', no '//'>
 *   :23B:CRED
 *   :32A:<value date YYMMDD><currency><amount, comma decimal>
 *   :33B:<currency><instructed amount>
 *   :50K:/<ordering account>  + ≤4×35x name and address
 *   :52D://FW<routing>        + the ordering institution's name
 *   :57D://FW<routing>        (account with institution: a US bank by its ABA number)
 *   :59:/<beneficiary account> + ≤4×35x name and address
 *   :70:/INV/<invoice number>  (≤4×35x remittance information)
 *   :71A:OUR                  (the payer pays every charge: the vendor receives the amount whole)
 *   -}
 *
 * Lines end CRLF and carry at most 35 characters of the X character set (`toSwiftX`); no line of a
 * field's continuation starts with ':' or '-', which FIN reads as a new tag or the block's end.
 * Account numbers are masked but for their last four (a bill manager's download must not leak a
 * vendor's full account number, which only the `sensitive` reveal shows).
 * Sender and receiver are the simulated partner bank and the Federal Reserve's FIN address.
 */
export type Mt103Data = {
  paymentId: string;
  uetr: string;
  /** The value date (the day the wire settles), YYYY-MM-DD. */
  valueDate: string;
  amount: number;
  currency: string;
  orderingCustomer: { account: string; name: string; country: string };
  orderingInstitution: { routing: string; name: string };
  beneficiary: { routing: string; account: string; name: string; address: Pick<VendorAddress, 'line1' | 'line2' | 'city' | 'state' | 'postal_code' | 'country'> | null };
  invoiceNumber: string;
};

export const SENDER_LT = 'LDGLUS33XXXX';
export const RECEIVER_LT = 'FRNYUS33XXXX';
const LINE = 35;

const X_PUNCTUATION = "/-?:().,'+ ";
const REPLACEMENTS: Record<string, string> = { '&': '+', '_': '-', '"': "'", '‘': "'", '’': "'", '“': "'", '”': "'", '–': '-', '—': '-', '#': '', '\t': ' ' };

/**
 * Text in the SWIFT X character set (a-z A-Z 0-9 / - ? : ( ) . , ' + space): accents dropped
 * (NFKD), a few look-alikes replaced, everything else removed, runs of spaces collapsed.
 */
export function toSwiftX(text: string): string {
  const out: string[] = [];
  for (const ch of text.normalize('NFKD')) {
    const c = REPLACEMENTS[ch] ?? ch;
    for (const k of c) if (/[A-Za-z0-9]/.test(k) || X_PUNCTUATION.includes(k)) out.push(k);
  }
  return out.join('').replace(/ {2,}/g, ' ').trim();
}

/** Words wrapped into lines of at most 35 characters (a longer word cut), at most `max` lines. */
export function wrapX(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of toSwiftX(text).split(' ').filter(Boolean)) {
    for (let w = word; w.length > 0; ) {
      const room = line ? LINE - line.length - 1 : LINE;
      if (w.length <= room) { line = line ? `${line} ${w}` : w; w = ''; continue; }
      if (line) { lines.push(line); line = ''; continue; }
      lines.push(w.slice(0, LINE)); w = w.slice(LINE);
    }
  }
  if (line) lines.push(line);
  // A continuation line may not start with ':' or '-' (FIN would read a tag or the end of block 4).
  return lines.map((l) => l.replace(/^[:-]+/, '').trim()).filter(Boolean).slice(0, max);
}

/** The MT103 amount: decimal comma, no thousands separator, the comma kept even with no decimals ("1500,"). */
export function swiftAmount(minor: number, currency: string): string {
  const decimal = minorToDecimal(minor, currency);
  return decimal.includes('.') ? decimal.replace('.', ',') : `${decimal},`;
}

/** :20: the sender's reference, 16 characters from the payment's id. */
export const wireReference = (paymentId: string): string => `LL${paymentId.replace(/-/g, '').slice(0, 14).toUpperCase()}`;

const addressOf = (a: Mt103Data['beneficiary']['address']): string[] => (a
  ? [a.line1, ...(a.line2 ? [a.line2] : []), `${a.city} ${[a.state, a.postal_code].filter(Boolean).join(' ')}`, a.country]
  : []);

/** Name then address lines, 35 each, at most four in all (the name keeps its lines first). */
function nameAndAddress(name: string, address: string[]): string[] {
  const lines = [...wrapX(name, 2), ...address.flatMap((l) => wrapX(l, 1))];
  return lines.slice(0, 4);
}

export function mt103(d: Mt103Data): string {
  const [y, m, day] = d.valueDate.split('-');
  const amount = `${d.currency}${swiftAmount(d.amount, d.currency)}`;
  const fields: [string, string[]][] = [
    ['20', [wireReference(d.paymentId)]],
    ['23B', ['CRED']],
    ['32A', [`${y!.slice(2)}${m}${day}${amount}`]],
    ['33B', [amount]],
    ['50K', [`/${maskDigits(d.orderingCustomer.account)}`, ...nameAndAddress(d.orderingCustomer.name, [d.orderingCustomer.country])]],
    ['52D', [`//FW${d.orderingInstitution.routing}`, ...wrapX(d.orderingInstitution.name, 3)]],
    ['57D', [`//FW${d.beneficiary.routing}`]],
    ['59', [`/${maskDigits(d.beneficiary.account)}`, ...nameAndAddress(d.beneficiary.name, addressOf(d.beneficiary.address))]],
    ['70', wrapX(`/INV/${d.invoiceNumber}`, 4)],
    ['71A', ['OUR']],
  ];
  const block4 = fields.map(([tag, [first, ...rest]]) => [`:${tag}:${first}`, ...rest].join('\r\n')).join('\r\n');
  return `{1:F01${SENDER_LT}0000000000}{2:I103${RECEIVER_LT}N}{3:{121:${d.uetr}}}{4:\r\n${block4}\r\n-}`;
}
