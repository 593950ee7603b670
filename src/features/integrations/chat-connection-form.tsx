import { useState, type FormEvent } from 'react';
import { CHAT_EVENTS, type ChatConnection, type ChatEvent, type ChatProvider } from '../../../schema/api/calls-chat.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';

export const EVENT_LABEL: Record<ChatEvent, string> = { approval_waiting: 'Approval requests', rejected: 'Rejections' };
const EVENT_DETAIL: Record<ChatEvent, string> = {
  approval_waiting: 'A claim, bill or request is waiting for someone’s approval.',
  rejected: 'An approver rejected something, with their reason.',
};
const WHERE: Record<ChatProvider, string> = {
  slack: 'In Slack: Apps → Incoming Webhooks → Add New Webhook, pick the channel, then copy the URL (https://hooks.slack.com/services/…).',
  teams: 'In Teams: the channel’s ••• → Workflows → “Post to a channel when a webhook request is received”, then copy the URL it gives you.',
};

type Props = {
  client: DataClient; provider: ChatProvider; current: ChatConnection | null; online: boolean;
  onSaved(c: ChatConnection): void; onCancel?: () => void;
};

/** Connect (or change) one provider's channel: its incoming webhook URL and what the channel hears. */
export function ChatConnectionForm({ client, provider, current, online, onSaved, onCancel }: Props) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ChatEvent[]>(current?.events ?? [...CHAT_EVENTS]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const toggle = (e: ChatEvent, on: boolean) => setEvents((list) => (on ? CHAT_EVENTS.filter((x) => x === e || list.includes(x)) : list.filter((x) => x !== e)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setUrlError(null);
    if (url.trim() === '') { setUrlError('Paste the webhook URL.'); return; }
    if (events.length === 0) { setError('Choose at least one kind of post.'); return; }
    setBusy(true);
    const r = await client.saveChatConnection(provider, { webhook_url: url.trim(), events });
    setBusy(false);
    if (r.ok) { setUrl(''); onSaved(r.connection); return; }
    const field = (r.error as { errors?: Record<string, string> }).errors?.webhook_url;
    if (field) setUrlError(field);
    else setError(errorText(r.error));
  }

  return (
    <form className="chat-form" onSubmit={(e) => void submit(e)} aria-label={`${provider === 'slack' ? 'Slack' : 'Teams'} connection`} noValidate>
      <TextField label="Incoming webhook URL" type="url" value={url} onChange={setUrl} autoComplete="off" maxLength={500} field="webhook_url"
        error={urlError} hint={current ? `Paste the URL again to keep the channel (saved: ${current.webhook_url_hint}), or a new one to move it.` : WHERE[provider]} />
      <fieldset className="chat-events">
        <legend>Post to the channel</legend>
        {CHAT_EVENTS.map((ev) => (
          <label key={ev} className="chat-check">
            <input type="checkbox" checked={events.includes(ev)} onChange={(x) => toggle(ev, x.target.checked)} />
            <span><strong>{EVENT_LABEL[ev]}</strong><span className="chat-detail">{EVENT_DETAIL[ev]}</span></span>
          </label>
        ))}
      </fieldset>
      <p className="muted chat-detail">Posts name the person and the amount, and link back to Ledgerline; opening a link asks for sign-in. Pick a channel only your team can read.</p>
      <FormError message={error} />
      <div className="chat-actions">
        {onCancel && <Button variant="ghost" onClick={onCancel}>Cancel</Button>}
        <Button variant="primary" type="submit" loading={busy} disabled={!online}>{current ? 'Save changes' : 'Connect'}</Button>
      </div>
    </form>
  );
}
