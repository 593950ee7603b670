import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import './chat.css';

const INCOMPLETE = 'This link is incomplete: copy the whole link from the post, or open Approvals.';
/** The server's 404 (REQUEST_7004): a signature that does not check, or a link of another business. */
const NOT_VALID = 'This link isn’t valid here. It may have been cut short or changed on the way, or it was made for another business you belong to: switch to that business and open it again, or find the item in Approvals.';

type State = { state: 'opening' } | { state: 'failed'; message: string };

/**
 * Issue 32: a link from a Slack or Teams post (`/chat-link?t=…`). The shell has already asked for
 * sign-in; the server checks the link's signature, expiry and business, and answers the item's
 * path, which replaces this page in the history.
 */
export function ChatLinkPage() {
  const client = useDataClient();
  const router = useRouter();
  const [token] = useState(() => new URLSearchParams(window.location.search).get('t'));
  const [s, setS] = useState<State>(token ? { state: 'opening' } : { state: 'failed', message: INCOMPLETE });
  useEffect(() => {
    if (!token) return;
    let live = true;
    void client.openChatLink(token).then((r) => {
      if (!live) return;
      if (r.ok) router.history.replace(r.path);
      else setS({ state: 'failed', message: r.error.error_code === 'REQUEST_7004' ? NOT_VALID : errorText(r.error) });
    });
    return () => { live = false; };
  }, [client, router, token]);
  return (
    <div className="chat-link-page">
      <h1>{s.state === 'opening' ? 'Opening…' : 'This link can’t be opened'}</h1>
      {s.state === 'opening'
        ? <p className="muted" role="status">Checking the link from Slack or Teams.</p>
        : <>
            <p role="alert">{s.message}</p>
            <p><Link to="/approvals" className="btn btn-primary">Go to approvals</Link></p>
          </>}
    </div>
  );
}
