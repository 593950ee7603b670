import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import type { BankStatement, BankStatementSummary, LinkedBankAccount } from '../../../workers/api.ts';
import { STATEMENT_CONTENT_TYPES, STATEMENT_MAX_BYTES } from '../../../schema/api/calls-banking.ts';
import type { WalletTransfer } from '../../../schema/entities/wallet-transfer.ts';
import { Button } from '../../components/button.tsx';
import { DeleteDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatLocalDateTime } from '../../lib/format.ts';
import { pdfProgressText, usePdfText, type PdfTextOutcome } from '../../lib/pdf-text/index.ts';
import { useReceiptOcr } from '../../lib/receipt-ocr/use-receipt-ocr.ts';
import { useReferenceAnswer } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { draftOf, emptyDraft, type StatementDraft } from './statement-draft.ts';
import { parseStatementText } from './statement-lines.ts';
import { StatementLinesEditor, StatementMatches } from './statement-review.tsx';
import { useBankAccounts } from './use-bank-accounts.ts';
import { useStatementSend } from './use-statement-send.ts';
import './banking.css';
import { TreasuryNav } from '../../components/treasury-nav.tsx';

const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * Issue 30, /treasury/statements (admins): a bank account's statements. A new one (PDF or
 * image) is read on this device when the `bank_account_statement_ocr` flag is on (images through
 * the receipts' OCR, tesseract.js; PDFs through lib/pdf-text: their text layer, or their first
 * scanned pages by the same OCR), its lines reviewed and edited (offline too), then uploaded and
 * the lines PUT once online; the server's matches show per line. Delete asked first.
 */
export function StatementsPage() {
  const { client } = usePageData();
  const online = useAppState((s) => s.online);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceAnswer(client, referenceVersion);
  const search = useSearch({ from: '/_app/treasury/statements' });
  const navigate = useNavigate({ from: '/treasury/statements' });
  const { list } = useBankAccounts(client, online);
  const flags = useAnswer(() => client.flags(), [client]);
  const accounts = list.state === 'ready' ? list.accounts : [];
  const account = accounts.find((a) => a.id === search.account) ?? accounts[0] ?? null;
  const [turn, setTurn] = useState(0);
  const [opened, setOpened] = useState<BankStatement | null>(null);
  const transfers = reference?.wallet_transfers ?? [];

  return (
    <div className="page bank-page">
      <TreasuryNav current="/treasury/statements" />
      <div className="page-header">
        <h1>Statements</h1>
      </div>
      {list.state === 'loading' && <p className="muted" role="status">Loading bank accounts…</p>}
      {list.state === 'offline' && <EmptyState title="Connect to see bank accounts">Statements belong to a linked bank account; none was read on this device yet.</EmptyState>}
      {list.state === 'error' && <FormError message={list.message} />}
      {list.state === 'ready' && list.cachedAt && (
        <p className="notice" role="status">
          Offline: the bank accounts as last synced {formatLocalDateTime(list.cachedAt)}. A statement can be read and checked now; it is uploaded and matched once you’re back online.
        </p>
      )}
      {list.state === 'ready' && accounts.length === 0 && (
        <EmptyState title="No bank accounts linked">Link a bank account in Bank accounts first; its statements are matched here.</EmptyState>
      )}
      {account && (
        <>
          <SelectField
            label="Bank account"
            value={account.id}
            options={accounts.map((a) => ({ value: a.id, label: `${a.name} ${a.account_number_masked}` }))}
            onChange={(id) => void navigate({ search: { account: id } })}
          />
          <Section title="Add a statement" description={flags?.bank_account_statement_ocr === false
            ? 'Upload the statement and type its lines (or paste its text); the server matches them to this account’s transfers.'
            : 'A PDF, photo or scan is read on this device: nothing leaves it until you upload. Check the lines, then upload to match them.'}>
            <StatementReader
              key={account.id}
              client={client}
              account={account}
              online={online}
              ocr={flags?.bank_account_statement_ocr !== false}
              transfers={transfers}
              onSent={() => setTurn((n) => n + 1)}
            />
          </Section>
          <Section title="Uploaded statements">
            <StatementList client={client} account={account} online={online} turn={turn} onOpen={setOpened} />
          </Section>
        </>
      )}
      {opened && account && (
        <Modal title={opened.file_name} description={periodText(opened)} size="lg" onClose={() => setOpened(null)}>
          <StatementMatches statement={opened} currency={account.currency} transfers={transfers} />
          <div className="modal-actions">
            <Button variant="primary" onClick={() => setOpened(null)}>Close</Button>
          </div>
        </Modal>
      )}
    </div>
  );
}

const periodText = (s: Pick<BankStatementSummary, 'period_start' | 'period_end' | 'created_at'>) =>
  s.period_start && s.period_end ? `${formatDay(s.period_start)} – ${formatDay(s.period_end)}` : `Uploaded ${formatLocalDateTime(s.created_at)}`;

/** `pdf`: what the PDF reader read (scanned pages, what it left unread) or why it could not. */
type PdfNote = { scanned: number; limits: string | null };
type Reading =
  | { kind: 'idle' } | { kind: 'off' } | { kind: 'nothing'; pdf?: PdfNote } | { kind: 'failed' }
  | { kind: 'pdf-failed'; message: string } | { kind: 'read'; lines: number; pdf?: PdfNote };

interface ReaderProps {
  client: DataClient;
  account: LinkedBankAccount;
  online: boolean;
  ocr: boolean;
  transfers: readonly WalletTransfer[];
  onSent(): void;
}

/** Choose → read on the device (or paste/type) → review → upload and match (when online; asked for offline, sent on reconnect). */
function StatementReader({ client, account, online, ocr, transfers, onSent }: ReaderProps) {
  const [file, setFile] = useState<File | null>(null);
  const [draft, setDraft] = useState<StatementDraft>(emptyDraft);
  const [reading, setReading] = useState<Reading>({ kind: 'idle' });
  const [result, setResult] = useState<BankStatement | null>(null);
  const reader = useReceiptOcr();
  const pdf = usePdfText();
  const today = localToday();
  const sender = useStatementSend(client, account.id, online, useCallback((s: BankStatement) => {
    setResult(s);
    setFile(null);
    setDraft(emptyDraft());
    setReading({ kind: 'idle' });
    toastInfo(`${s.file_name}: ${s.matched} matched, ${s.unmatched} unmatched.`);
    onSent();
  }, [onSent]));

  function reset() {
    reader.reset();
    pdf.reset();
    sender.forget();
    setFile(null);
    setDraft(emptyDraft());
    setReading({ kind: 'idle' });
  }

  async function choose(files: File[]) {
    const f = files[0];
    if (!f) return;
    reset();
    setResult(null);
    if (!(STATEMENT_CONTENT_TYPES as readonly string[]).includes(f.type)) {
      return sender.setErrors({ lines: {}, message: 'Choose a PDF or an image (PNG, JPEG, WebP) of the statement.' });
    }
    setFile(f);
    if (!ocr) return setReading({ kind: 'off' });
    if (f.type === 'application/pdf') return readPdf(await pdf.read(f, { maxBytes: STATEMENT_MAX_BYTES }));
    const r = await reader.read(f);
    if (!r) return setReading({ kind: 'failed' });
    const parsed = parseStatementText(r.text, { today });
    if (parsed.lines.length === 0) return setReading({ kind: 'nothing' });
    setDraft(draftOf(parsed));
    setReading({ kind: 'read', lines: parsed.lines.length });
  }

  /** The PDF's text (its text layer, or its scanned pages' OCR) through the same parser. */
  function readPdf(outcome: PdfTextOutcome | null) {
    if (!outcome) return; // another file was chosen meanwhile
    if (!outcome.ok) return setReading({ kind: 'pdf-failed', message: outcome.message });
    const note: PdfNote = { scanned: outcome.reading.scannedPages, limits: outcome.limits };
    const parsed = parseStatementText(outcome.reading.text, { today });
    if (parsed.lines.length === 0) return setReading({ kind: 'nothing', pdf: note });
    setDraft(draftOf(parsed));
    setReading({ kind: 'read', lines: parsed.lines.length, pdf: note });
  }

  const status = reader.state;
  return (
    <div className="stmt-reader">
      {!file && (
        <ReceiptCapture label="Choose statement" accept={STATEMENT_CONTENT_TYPES.join(',')} multiple={false} camera={false} hint="or drop the statement (PDF or image) here" onFiles={(f) => void choose(f)} />
      )}
      {file && (
        <div className="stmt-file">
          <span className="stmt-file-name">{file.name}</span>
          <Button size="sm" variant="ghost" disabled={sender.busy} onClick={reset}>Choose another file</Button>
        </div>
      )}
      {status.status === 'reading'
        ? <p className="muted" role="status">Reading the statement on this device… {Math.round(status.progress * 100)}%</p>
        : pdf.state.status === 'reading'
          ? <p className="muted" role="status">{pdfProgressText(pdf.state.progress)}</p>
          : <ReadingNote reading={reading} />}
      {file && (
        <>
          {/* What was asked to be sent is what goes: the lines are locked while they wait or are sent ("Don’t send" unlocks them). */}
          <fieldset className="stmt-review" disabled={sender.waiting || sender.busy}>
            <legend className="sr-only">Statement lines to check</legend>
            <PasteText today={today} onRead={(read) => setDraft((d) => ({ lines: [...d.lines, ...read.lines], period_start: d.period_start || read.period_start, period_end: d.period_end || read.period_end }))} />
            <StatementLinesEditor draft={draft} errors={sender.errors.lines} periodError={sender.errors.period} currency={account.currency} today={today} onChange={setDraft} />
          </fieldset>
          {sender.waiting && !online && (
            <p className="notice" role="status">Waiting for a connection: the statement and these lines are sent as soon as you’re back online. Keep this page open. To change a line first, choose Don’t send.</p>
          )}
        </>
      )}
      <FormError message={sender.errors.message} />
      {file && (
        <div className="stmt-send">
          <Button variant="primary" loading={sender.busy} disabled={draft.lines.length === 0 || sender.waiting} onClick={() => sender.ask(file, draft)}>
            {online ? 'Upload and match' : 'Upload when online'}
          </Button>
          {sender.waiting && <Button variant="ghost" onClick={sender.cancel}>Don’t send</Button>}
        </div>
      )}
      {result && (
        <div className="stmt-last">
          <h3 className="claim-section-title">{result.file_name}</h3>
          <StatementMatches statement={result} currency={account.currency} transfers={transfers} />
        </div>
      )}
    </div>
  );
}

const MANUAL = 'paste the statement’s text below, or add the lines by hand.';

/** What was read, or why not, and the way on by hand. */
export function readingText(reading: Exclude<Reading, { kind: 'idle' }>): string {
  switch (reading.kind) {
    case 'off': return `Reading statements on the device is off for this business: ${MANUAL}`;
    case 'failed': return `This image could not be read on this device: ${MANUAL}`;
    case 'pdf-failed': return `${reading.message} You can ${MANUAL}`;
    case 'nothing': return withLimits(`No transaction lines could be read from this ${reading.pdf ? 'PDF' : 'image'}: ${MANUAL}`, reading.pdf);
    case 'read': {
      const lines = reading.lines === 1 ? '1 line' : `${reading.lines} lines`;
      const from = !reading.pdf ? '' : reading.pdf.scanned > 0 ? ` from the PDF’s scanned ${reading.pdf.scanned === 1 ? 'page' : 'pages'}` : ' from the PDF';
      return withLimits(`Read ${lines}${from} on this device. Check each one before uploading.`, reading.pdf);
    }
  }
}

const withLimits = (text: string, pdf: PdfNote | undefined) => (pdf?.limits ? `${text} ${pdf.limits}` : text);

export function ReadingNote({ reading }: { reading: Reading }) {
  if (reading.kind === 'idle') return null;
  return <p className="muted" role="status">{readingText(reading)}</p>;
}

/** The statement's text pasted (a PDF's, copied from the bank's site), read by the same parser. */
function PasteText({ today, onRead }: { today: string; onRead(d: StatementDraft): void }) {
  const [pasted, setPasted] = useState('');
  return (
    <details className="stmt-paste">
      <summary>Paste the statement’s text</summary>
      <label className="field">
        <span className="field-label">Statement text</span>
        <textarea rows={5} value={pasted} onChange={(e) => setPasted(e.target.value)} />
      </label>
      <Button size="sm" disabled={pasted.trim() === ''} onClick={() => {
        onRead(draftOf(parseStatementText(pasted, { today })));
        setPasted('');
      }}>Read the text</Button>
    </details>
  );
}

function StatementList({ client, account, online, turn, onOpen }: { client: DataClient; account: LinkedBankAccount; online: boolean; turn: number; onOpen(s: BankStatement): void }) {
  const { list, reload } = useOnlineList(online, `${account.id}:${turn}`, useCallback(async () => {
    const r = await client.statements(account.id);
    return r.ok ? { ok: true as const, rows: r.statements } : r;
  }, [client, account.id]));
  const [deleting, setDeleting] = useState<BankStatementSummary | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (list.state === 'offline') return <p className="muted">Connect to see the statements uploaded for this account.</p>;
  if (list.state === 'loading') return <p className="muted" role="status">Loading statements…</p>;
  if (list.state === 'error') return <FormError message={list.message} />;
  if (list.rows.length === 0) return <p className="muted">No statements uploaded for {account.name} yet.</p>;
  async function open(id: string) {
    setOpening(id);
    setError(null);
    const r = await client.statement(id);
    setOpening(null);
    if (r.ok) onOpen(r.statement);
    else setError(errorText(r.error));
  }
  return (
    <>
      <FormError message={error} />
      <ul className="stmt-list">
        {list.rows.map((s) => (
          <li key={s.id} className="stmt-item">
            <div className="stmt-item-main">
              <span className="stmt-item-name">{s.file_name}</span>
              <span className="muted">{periodText(s)}</span>
            </div>
            {s.status === 'READ'
              ? <span className="stmt-item-pills"><StatusPill tone="ok">{s.matched} matched</StatusPill> <StatusPill tone={s.unmatched > 0 ? 'warn' : 'neutral'}>{s.unmatched} unmatched</StatusPill></span>
              : <StatusPill tone="neutral">No lines yet</StatusPill>}
            <Button size="sm" variant="secondary" loading={opening === s.id} onClick={() => void open(s.id)}>
              Open<span className="sr-only"> {s.file_name}</span>
            </Button>
            <Button size="sm" variant="danger" onClick={() => setDeleting(s)}>
              Delete<span className="sr-only"> {s.file_name}</span>
            </Button>
          </li>
        ))}
      </ul>
      {deleting && (
        <DeleteDialog
          title={`Delete ${deleting.file_name}?`}
          description={`The statement file and its ${deleting.matched + deleting.unmatched} lines are removed. The transfers it matched are not changed.`}
          confirmLabel="Delete statement"
          onClose={() => setDeleting(null)}
          onDelete={async () => {
            const r = await client.deleteStatement(deleting.id);
            if (!r.ok) return r.error;
            toastInfo(`${deleting.file_name} was deleted.`);
            reload();
            return null;
          }}
        />
      )}
    </>
  );
}
