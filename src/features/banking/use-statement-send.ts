import { useCallback, useEffect, useRef, useState } from 'react';
import type { BankStatement } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { linesBody, type LineErrors, type StatementDraft } from './statement-draft.ts';

export interface SendErrors {
  lines: LineErrors;
  period?: string | undefined;
  message: string | null;
}

/**
 * Sending a reviewed statement: upload the file, then PUT its lines (the server answers the
 * matches). Asked while offline (or refused as offline) it waits and goes as soon as the page is
 * online again; a statement already uploaded whose lines failed is not uploaded twice. One
 * Idempotency-Key per file, so a retry after a lost answer is the same upload.
 */
export function useStatementSend(client: DataClient, bankAccountId: string, online: boolean, onSent: (s: BankStatement) => void) {
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [errors, setErrors] = useState<SendErrors>({ lines: {}, message: null });
  const uploaded = useRef<string | null>(null);
  const key = useRef(crypto.randomUUID());
  const pending = useRef<{ file: File; draft: StatementDraft } | null>(null);

  const send = useCallback(async (file: File, draft: StatementDraft) => {
    const checked = linesBody(draft);
    if (!checked.ok) {
      setWaiting(false);
      return setErrors({ lines: checked.errors, period: checked.period, message: checked.message });
    }
    setErrors({ lines: {}, message: null });
    pending.current = { file, draft };
    setBusy(true);
    try {
      let id = uploaded.current;
      if (!id) {
        const up = await client.uploadStatement(bankAccountId, file, file.name, key.current);
        if (!up.ok) {
          const offline = 'offline' in up && up.offline === true;
          setWaiting(offline);
          if (!offline) setErrors({ lines: {}, message: errorText(up.error) });
          return;
        }
        id = up.statement.id;
        uploaded.current = id;
      }
      const saved = await client.saveStatementLines(id, checked.body);
      if (!saved.ok) {
        const offline = 'offline' in saved && saved.offline === true;
        setWaiting(offline);
        if (!offline) setErrors({ lines: {}, message: `The statement was uploaded, but its lines were not saved: ${errorText(saved.error)}` });
        return;
      }
      setWaiting(false);
      pending.current = null;
      uploaded.current = null;
      key.current = crypto.randomUUID();
      onSent(saved.statement);
    } finally {
      setBusy(false);
    }
  }, [bankAccountId, client, onSent]);

  // Sent again only after the page was offline and is back (not in a loop while a request finds no server).
  const sawOffline = useRef(!online);
  useEffect(() => {
    if (!online) sawOffline.current = true;
  }, [online]);
  // Waiting for the connection: sent once it is back (a timer, so a quick flap sends once).
  useEffect(() => {
    if (!waiting || !online || busy || !pending.current || !sawOffline.current) return;
    const { file, draft } = pending.current;
    const t = setTimeout(() => {
      sawOffline.current = false;
      void send(file, draft);
    }, 0);
    return () => clearTimeout(t);
  }, [waiting, online, busy, send]);

  return {
    busy,
    waiting,
    errors,
    setErrors,
    /** Send now (online), or wait for the connection. */
    ask(file: File, draft: StatementDraft) {
      if (online) return void send(file, draft);
      const checked = linesBody(draft);
      if (!checked.ok) return setErrors({ lines: checked.errors, period: checked.period, message: checked.message });
      pending.current = { file, draft };
      setWaiting(true);
    },
    cancel() {
      pending.current = null;
      setWaiting(false);
    },
    /** Another file: nothing of the previous one is kept. */
    forget() {
      pending.current = null;
      uploaded.current = null;
      key.current = crypto.randomUUID();
      setWaiting(false);
      setErrors({ lines: {}, message: null });
    },
  };
}
