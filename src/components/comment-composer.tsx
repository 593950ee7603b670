import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { COMMENT_BODY_MAX } from '../../schema/api/calls-comments.ts';
import { filterPeople, insertMention, mentionIdsIn, mentionQueryAt, pickerOpen, type Mentionable } from '../lib/comment-mentions.ts';
import { initials } from '../lib/comment-words.ts';
import { Button } from './button.tsx';
import { rovingTarget } from './roving.ts';
import { useLayer } from './use-layer.ts';

export interface CommentComposerProps {
  /** Who can be mentioned (the mirror's people, the viewer left out). */
  people: readonly Mentionable[];
  /** Why nothing can be sent now (offline); the typed text stays. */
  disabledReason: string | null;
  /**
   * Sends the text with the ids it mentions and the client's id for this text (the same id again
   * when the same text is sent again after a failure, so a lost answer is not a second comment).
   * Answers the refusal's words, or null once the server has it.
   */
  onSend(body: string, mentions: Mentionable[], clientId: string): Promise<string | null>;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * Issue 29, a thread's composer: a textarea where Enter is a new line and Ctrl/⌘+Enter sends,
 * "@" opens a people picker (filtered as you type; arrows and Enter, or a tap) that writes
 * "@First Last" and remembers who was meant. Not a <form>: the transaction drawer's thread sits
 * inside the coding form. A refusal keeps the text and says why.
 */
export function CommentComposer({ people, disabledReason, onSend }: CommentComposerProps) {
  const id = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState<Mentionable[]>([]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const { deliver, sending, error } = useDelivery(onSend);
  const moveCaret = useRef<number | null>(null);

  const query = disabledReason ? null : mentionQueryAt(text, caret);
  const matches = query ? filterPeople(people, query.query) : [];
  const open = pickerOpen(query, matches.length) && dismissed !== query?.start;
  const current = Math.min(active, Math.max(0, matches.length - 1));

  useLayoutEffect(() => {
    if (moveCaret.current === null || !input.current) return;
    input.current.setSelectionRange(moveCaret.current, moveCaret.current);
    moveCaret.current = null;
  });

  function edit(value: string, at: number) {
    setText(value);
    setCaret(at);
    setActive(0);
    if (dismissed !== null && mentionQueryAt(value, at)?.start !== dismissed) setDismissed(null);
  }
  function choose(person: Mentionable | undefined) {
    if (!person || !query) return;
    const next = insertMention(text, query, person);
    setPicked((p) => (p.some((x) => x.id === person.id) ? p : [...p, person]));
    moveCaret.current = next.caret;
    edit(next.text, next.caret);
    // "@First Last " still reads as a query that matches them: the picker stays shut until another "@".
    setDismissed(query.start);
    input.current?.focus();
  }
  async function send() {
    const body = text.trim();
    if (!body || sending || disabledReason) return;
    const mentioned = mentionIdsIn(body, picked).map((pid) => picked.find((p) => p.id === pid)!);
    if (await deliver(body, mentioned)) {
      setText('');
      setPicked([]);
    }
  }
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (open && matches.length > 0) {
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        return choose(matches[current]);
      }
      const to = rovingTarget(e.key, current, matches.length);
      if (to !== null && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        setActive(to);
        document.getElementById(`${id}-opt-${to}`)?.scrollIntoView({ block: 'nearest' });
        return;
      }
    }
    if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      void send();
    }
  }

  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const listId = `${id}-people`;
  return (
    <div className="comment-composer">
      <label className="sr-only" htmlFor={id}>Write a comment</label>
      <div className="comment-input">
        <textarea
          ref={input}
          id={id}
          className="comment-textarea"
          rows={2}
          maxLength={COMMENT_BODY_MAX}
          placeholder={disabledReason ? 'Available when you’re back online' : 'Write a comment…'}
          value={text}
          disabled={!!disabledReason}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open && matches.length > 0 ? `${id}-opt-${current}` : undefined}
          aria-describedby={[noteId, error ? errorId : ''].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={(e) => edit(e.target.value, e.target.selectionStart)}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => query && setDismissed(query.start)}
        />
        {open && (
          <PeopleList id={id} listId={listId} query={query!.query} matches={matches} current={current} onChoose={choose} onEscape={() => setDismissed(query!.start)} />
        )}
      </div>
      {error && <p id={errorId} className="form-error comment-error" role="alert">{error}</p>}
      <div className="comment-composer-foot">
        <ComposerHint id={noteId} reason={disabledReason} />
        <Button variant="primary" size="sm" loading={sending} disabled={!text.trim() || !!disabledReason} onClick={() => void send()}>
          Send
        </Button>
      </div>
    </div>
  );
}

/**
 * One text's delivery: the same client id while the same text (and mentions) is sent again after
 * a failure, so an answer lost on the way does not make a second comment; a new id for new text.
 */
function useDelivery(onSend: CommentComposerProps['onSend']) {
  const [attempt, setAttempt] = useState<{ id: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  async function deliver(body: string, mentioned: Mentionable[]): Promise<boolean> {
    const key = `${body}\u0000${mentioned.map((m) => m.id).join()}`;
    const clientId = attempt?.key === key ? attempt.id : crypto.randomUUID();
    setAttempt({ id: clientId, key });
    setSending(true);
    setError(null);
    try {
      const refused = await onSend(body, mentioned, clientId);
      setError(refused);
      if (refused === null) setAttempt(null);
      return refused === null;
    } finally {
      setSending(false);
    }
  }
  return { deliver, sending, error };
}

/** Under the text: why nothing can be sent now, or the keys. */
function ComposerHint({ id, reason }: { id: string; reason: string | null }) {
  return (
    <p id={id} className="comment-hint">
      {reason ?? (
        <>
          <span>Type @ to mention someone.</span> <span className="comment-keys">{isMac ? '⌘' : 'Ctrl'}+Enter sends.</span>
        </>
      )}
    </p>
  );
}

interface PeopleListProps {
  id: string;
  listId: string;
  query: string;
  matches: readonly Mentionable[];
  current: number;
  onChoose(p: Mentionable): void;
  onEscape(): void;
}

/** The open picker is a layer, so Escape closes it and not the drawer around the thread. */
function PeopleList({ id, listId, query, matches, current, onChoose, onEscape }: PeopleListProps) {
  const box = useRef<HTMLUListElement>(null);
  useLayer({ ref: box, modal: false, autoFocus: false, onEscape });
  useLayoutEffect(() => {
    // A block, not an expression: newer Chromium answers scrollIntoView with a promise, which React would call as the cleanup.
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <ul ref={box} id={listId} role="listbox" aria-label="People to mention" className="comment-people">
      {matches.length === 0 && (
        <li role="option" aria-selected={false} aria-disabled="true" className="comment-person comment-person-none">
          No one matches “{query}”
        </li>
      )}
      {matches.map((p, i) => (
        <li
          key={p.id}
          id={`${id}-opt-${i}`}
          role="option"
          aria-selected={i === current}
          className={i === current ? 'comment-person active' : 'comment-person'}
          // Keep focus (and the caret) in the textarea: a click or tap chooses without blurring it.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onChoose(p)}
        >
          <span className="comment-avatar comment-avatar-sm" aria-hidden="true">{initials(p.name)}</span>
          <span className="comment-person-name">{p.name}</span>
          {p.email && <span className="comment-person-email">{p.email}</span>}
        </li>
      ))}
    </ul>
  );
}
