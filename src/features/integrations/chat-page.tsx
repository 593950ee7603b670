import { useCallback, useState } from 'react';
import { CHAT_PROVIDERS, type ChatConnection, type ChatProvider } from '../../../schema/api/calls-chat.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { Section } from '../../components/section.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { ChatConnectionForm, EVENT_LABEL } from './chat-connection-form.tsx';
import './chat.css';

const NAME: Record<ChatProvider, string> = { slack: 'Slack', teams: 'Microsoft Teams' };
const ABOUT: Record<ChatProvider, string> = {
  slack: 'Post approval requests and rejections to a Slack channel through an incoming webhook.',
  teams: 'Post approval requests and rejections to a Teams channel through a workflow’s webhook.',
};
const OFFLINE_BODY = 'Slack and Teams settings live on the server, so they cannot be shown or changed while you’re offline.';

/**
 * Issue 32: Settings → Integrations → Slack and Teams. Each provider's channel: connect it with an
 * incoming webhook, choose what it hears, send a test, see how the last post went and what waits.
 */
export function ChatPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const { list, reload } = useOnlineList(online, 'chat', useCallback(async () => {
    const r = await client.chatConnections();
    return r.ok ? { ok: true as const, rows: [r.connections] } : r;
  }, [client]));
  const connections = list.state === 'ready' ? list.rows[0] ?? [] : null;
  return (
    <div className="chat-page">
      <div className="page-header"><h1>Slack and Teams</h1></div>
      <p className="muted">Tell your team where they already talk: approval requests and rejections appear in a channel, each with a link that opens it in Ledgerline.</p>
      {!online && list.state !== 'offline' && <p className="notice notice-warn">You’re offline. Slack and Teams settings need a connection to the server.</p>}
      <ListStatus list={list} what="Slack and Teams connections" offlineBody={OFFLINE_BODY} online={online} onRetry={reload} />
      {connections && CHAT_PROVIDERS.map((p) => (
        <ProviderCard key={p} client={client} provider={p} online={online} onChanged={reload}
          connection={connections.find((c) => c.provider === p) ?? null} />
      ))}
    </div>
  );
}

type CardProps = { client: DataClient; provider: ChatProvider; connection: ChatConnection | null; online: boolean; onChanged(): void };

function ProviderCard({ client, provider, connection, online, onChanged }: CardProps) {
  const [editing, setEditing] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const saved = () => { setEditing(false); setResult(null); onChanged(); };
  async function test() {
    setTesting(true);
    setResult(null);
    const r = await client.testChatConnection(provider);
    setTesting(false);
    setResult(r.ok ? { ok: r.delivered, message: r.message } : { ok: false, message: errorText(r.error) });
    onChanged();
  }
  if (!connection || editing) {
    return (
      <Section title={connection ? `Change ${NAME[provider]}` : NAME[provider]} description={ABOUT[provider]}>
        <ChatConnectionForm client={client} provider={provider} current={connection} online={online} onSaved={saved}
          {...(connection && { onCancel: () => setEditing(false) })} />
      </Section>
    );
  }
  return (
    <Section title={NAME[provider]} description={ABOUT[provider]}
      actions={<><Button variant="ghost" onClick={() => setEditing(true)} disabled={!online}>Change</Button>
        <Button variant="ghost" onClick={() => setDisconnecting(true)} disabled={!online}>Disconnect</Button></>}>
      <ConnectionFacts connection={connection} />
      <div className="chat-test">
        <Button variant="secondary" loading={testing} disabled={!online} onClick={() => void test()}>Send a test message</Button>
        {result && <p role="status" className={result.ok ? 'chat-result is-ok' : 'chat-result is-failed'}>{result.message}</p>}
      </div>
      {disconnecting && (
        <ConfirmDialog title={`Disconnect ${NAME[provider]}?`} tone="danger" confirmLabel="Disconnect" cancelLabel="Keep connected" onClose={() => setDisconnecting(false)}
          description={`Nothing more is posted to the channel${connection.posts_waiting > 0 ? `, and the ${connection.posts_waiting} post${connection.posts_waiting === 1 ? '' : 's'} still waiting ${connection.posts_waiting === 1 ? 'is' : 'are'} dropped` : ''}. Posts already in the channel stay there; their links keep working for people who can sign in.`}
          onConfirm={async () => {
            const r = await client.disconnectChat(provider);
            if (r.ok) saved();
            return r.ok;
          }} />
      )}
    </Section>
  );
}

export function ConnectionFacts({ connection: c }: { connection: ChatConnection }) {
  const last = c.last_post;
  return (
    <dl className="chat-facts">
      <div><dt>Status</dt><dd>
        {last && !last.ok ? <StatusPill tone="danger">Last post failed</StatusPill> : <StatusPill tone="ok">Connected</StatusPill>}
      </dd></div>
      <div><dt>Webhook</dt><dd><code>{c.webhook_url_hint}</code></dd></div>
      <div><dt>Posts</dt><dd>{c.events.map((e) => EVENT_LABEL[e]).join(' and ')}</dd></div>
      <div><dt>Last post</dt><dd>
        {!last ? 'Nothing posted yet. Send a test message to check the channel.'
          : last.ok ? `Delivered ${formatLocalDateTime(last.at)}`
            : <>Failed {formatLocalDateTime(last.at)}<span className="chat-detail chat-error">{last.error}</span></>}
      </dd></div>
      <div><dt>Waiting</dt><dd>{c.posts_waiting === 0 ? 'Nothing waiting' : `${c.posts_waiting} post${c.posts_waiting === 1 ? '' : 's'} waiting; retried with growing pauses`}</dd></div>
      <div><dt>Connected by</dt><dd>{c.connected_by.name}</dd></div>
    </dl>
  );
}
