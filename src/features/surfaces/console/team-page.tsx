import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import type { FirmClient, FirmView } from '../../../../workers/api.ts';
import type { DataClient } from '../../../data-access/types.ts';
import { useConsoleOnline } from './clients-page.tsx';
import { keep, kept } from './console-cache.ts';
import { readAtText } from './console-words.ts';
import { clientsText, INVITE_WORDS, inviteRows, isFirmAdmin, ROLE_WORDS, teamRows } from './team-model.ts';

type Team = { view: FirmView; clients: FirmClient[] };
type Loaded = Team & { at: number; offline: boolean };

/** At most this many pages of clients are read to say who works on what (25 a page). */
const MAX_CLIENT_PAGES = 20;

/**
 * `/console/team`: the firm's people with their role and the clients each works on, and (for
 * admins, who the server answers them to) the open invites. Offline: the team as last read on
 * this device, with its time.
 */
export function TeamPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [team, setTeam] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void readTeam(client, identityId).then((r) => {
      if (!live) return;
      if ('message' in r) setError(r.message);
      else {
        setTeam(r);
        setError(null);
      }
    });
    return () => {
      live = false;
    };
  }, [client, identityId, online]);

  const admin = team ? isFirmAdmin(team.view) : false;
  return (
    <section className="console-page" aria-labelledby="team-title">
      <div className="page-header">
        <div>
          <h1 id="team-title">Team</h1>
          {team && <p className="muted console-lead">The people of {team.view.firm.name} and the clients each one works on.</p>}
        </div>
      </div>
      {team?.offline && (
        <p className="notice" role="status">
          You’re offline: this is your team as last read on this device ({readAtText(team.at)}).
        </p>
      )}
      <FormError message={error} />
      {!team && !error && (
        <div aria-busy="true">
          <span className="sr-only">Loading your team…</span>
          <Skeleton height={56} />
          <Skeleton height={56} />
        </div>
      )}
      {team && <People team={team} admin={admin} />}
      {team && admin && <Invites invites={team.view.invites} />}
      {team && !admin && (
        <p className="muted">You see the clients assigned to you. Your firm’s admins invite people and choose who works on each client.</p>
      )}
    </section>
  );
}

function People({ team, admin }: { team: Team; admin: boolean }) {
  const rows = teamRows(team.view, team.clients);
  return (
    <ul className="console-list" aria-label="People">
      {rows.map((row) => (
        <li key={row.member.id} className="console-row">
          <div className="console-row-main">
            <h2 className="console-row-title">
              {row.name}
              {row.isMe && <span className="muted"> (you)</span>}
            </h2>
            <p className="muted console-row-detail">{row.member.email}</p>
            <p className="console-row-detail">{clientsText(row, admin)}</p>
          </div>
          <StatusPill tone={row.member.role === 'EXTERNAL_FIRM_ADMIN' ? 'info' : 'neutral'} title={ROLE_WORDS[row.member.role].does}>
            {ROLE_WORDS[row.member.role].name}
          </StatusPill>
        </li>
      ))}
    </ul>
  );
}

function Invites({ invites }: { invites: FirmView['invites'] }) {
  return (
    <section className="console-section" aria-labelledby="team-invites">
      <h2 id="team-invites">Invites</h2>
      {invites.length === 0 ? (
        <EmptyState title="No open invites" level="text">
          Invitations to join your firm show here until they are accepted or expire.
        </EmptyState>
      ) : (
        <ul className="console-list" aria-label="Invites">
          {inviteRows(invites).map((i) => (
            <li key={i.id} className="console-row">
              <div className="console-row-main">
                <p className="console-row-title">{i.email}</p>
                <p className="muted console-row-detail">
                  {ROLE_WORDS[i.role].name} · {i.status === 'OPEN' ? `link valid until ${formatDay(i.expires_at)}` : `expired ${formatDay(i.expires_at)}`}
                  {i.resend_count > 0 && ` · sent again ${i.resend_count === 1 ? 'once' : `${i.resend_count} times`}`}
                </p>
              </div>
              <StatusPill tone={INVITE_WORDS[i.status].tone}>{INVITE_WORDS[i.status].text}</StatusPill>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Answer = Loaded | { message: string };

/** The firm and every client (for who works on what), kept on this device; else the last kept; else why not. */
async function readTeam(client: DataClient, identityId: string): Promise<Answer> {
  const [firm, clients] = await Promise.all([client.consoleFirm(), allClients(client)]);
  if (firm.ok && clients.ok) {
    const at = Date.now();
    const team: Team = { view: firm.firm, clients: clients.rows };
    void keep(identityId, 'team', team, at);
    return { ...team, at, offline: false };
  }
  const failed = !firm.ok ? firm : !clients.ok ? clients : null;
  const last = await kept<Team>(identityId, 'team');
  if (last) return { ...last.value, at: last.at, offline: true };
  if (failed && 'offline' in failed) return { message: 'You’re offline and this device has not read your team yet. It appears once you’re back online.' };
  return { message: failed ? errorText(failed.error) : 'Your team could not be read.' };
}

async function allClients(client: DataClient) {
  const rows: FirmClient[] = [];
  let start: string | undefined;
  for (let page = 0; page < MAX_CLIENT_PAGES; page++) {
    const r = await client.consoleClients(start);
    if (!r.ok) return r;
    rows.push(...r.rows);
    if (!r.next) break;
    start = r.next;
  }
  return { ok: true as const, rows };
}
