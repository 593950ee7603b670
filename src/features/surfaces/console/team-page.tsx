import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button, buttonClass } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { Menu, MenuItem } from '../../../components/menu.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import type { FirmClient, FirmView } from '../../../../workers/api.ts';
import type { DataClient } from '../../../data-access/types.ts';
import { useConsoleOnline } from './clients-page.tsx';
import { keep, kept } from './console-cache.ts';
import { readAtText } from './console-words.ts';
import { InviteDialog, TeamAskDialog, type TeamAsk } from './team-actions.tsx';
import { clientsText, INVITE_WORDS, inviteRows, isFirmAdmin, ROLE_WORDS, teamRows, type TeamRow } from './team-model.ts';

type Team = { view: FirmView; clients: FirmClient[] };
type Loaded = Team & { at: number; offline: boolean };
type Invite = FirmView['invites'][number];

/** At most this many pages of clients are read to say who works on what (25 a page). */
const MAX_CLIENT_PAGES = 20;

/**
 * `/console/team`: the firm's people with their role and the clients each works on, and (for
 * admins, who the server answers them to) the open invites. Admins invite by email with a role,
 * send an invite again, withdraw it, remove a member and take a member off a client (each asked
 * first). Offline: the team as last read on this device, with its time; changes wait for a connection.
 */
export function TeamPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [team, setTeam] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [ask, setAsk] = useState<TeamAsk | null>(null);
  const [inviting, setInviting] = useState(false);
  const [resending, setResending] = useState<string | null>(null);
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);
  const done = (text: string) => {
    setNote({ text, failed: false });
    setVersion((v) => v + 1);
  };

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
  }, [client, identityId, online, version]);

  async function resend(invite: Invite) {
    setNote(null);
    setResending(invite.id);
    const r = await client.consoleResendInvite(invite.id);
    setResending(null);
    if (r.ok) done(`Invite sent again to ${invite.email}. The earlier link no longer works.`);
    else setNote({ text: errorText(r.error), failed: true });
  }

  const admin = team ? isFirmAdmin(team.view) : false;
  const canChange = admin && online && !team?.offline;
  return (
    <section className="console-page" aria-labelledby="team-title">
      <div className="page-header">
        <div>
          <h1 id="team-title">Team</h1>
          {team && <p className="muted console-lead">The people of {team.view.firm.name} and the clients each one works on.</p>}
        </div>
        {admin && (
          <div className="page-actions">
            <Button variant="primary" disabled={!canChange} title={canChange ? undefined : 'Inviting needs a connection'} onClick={() => setInviting(true)}>
              Invite someone
            </Button>
          </div>
        )}
      </div>
      {admin && !canChange && <p className="muted">Inviting, removing and changing who works on a client need a connection.</p>}
      {note && (
        <p className={note.failed ? 'notice notice-error' : 'notice'} role={note.failed ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
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
      {team && <People team={team} admin={admin} canChange={canChange} onAsk={setAsk} />}
      {team && admin && <Invites invites={team.view.invites} canChange={canChange && resending === null} resending={resending} onResend={(i) => void resend(i)} onAsk={setAsk} />}
      {team && !admin && (
        <p className="muted">You see the clients assigned to you. Your firm’s admins invite people and choose who works on each client.</p>
      )}
      {ask && team && <TeamAskDialog ask={ask} firmName={team.view.firm.name} onClose={() => setAsk(null)} onDone={done} />}
      {inviting && team && <InviteDialog firmName={team.view.firm.name} onClose={() => setInviting(false)} onInvited={done} />}
    </section>
  );
}

type PeopleProps = { team: Team; admin: boolean; canChange: boolean; onAsk(ask: TeamAsk): void };

function People({ team, admin, canChange, onAsk }: PeopleProps) {
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
          {admin && (!row.isMe || row.work.length > 0) && <MemberMenu row={row} canChange={canChange} onAsk={onAsk} />}
        </li>
      ))}
    </ul>
  );
}

/** An admin's changes to one person: take them off each of their clients, remove them from the firm (not yourself). */
function MemberMenu({ row, canChange, onAsk }: { row: TeamRow; canChange: boolean; onAsk(ask: TeamAsk): void }) {
  return (
    <Menu
      label={`Change ${row.name}`}
      trigger={<>Change<span className="sr-only"> {row.name}</span></>}
      triggerClassName={buttonClass({ variant: 'secondary', size: 'sm' })}
    >
      {row.work.map((c) => (
        <MenuItem key={c.business_id} disabled={!canChange} onSelect={() => onAsk({ kind: 'unassign', member: row.member, client: c })}>
          Unassign from {c.business_name}…
        </MenuItem>
      ))}
      {!row.isMe && (
        <MenuItem disabled={!canChange} onSelect={() => onAsk({ kind: 'remove', member: row.member, work: row.work })}>
          Remove from firm…
        </MenuItem>
      )}
    </Menu>
  );
}

type InvitesProps = { invites: FirmView['invites']; canChange: boolean; resending: string | null; onResend(invite: Invite): void; onAsk(ask: TeamAsk): void };

function Invites({ invites, canChange, resending, onResend, onAsk }: InvitesProps) {
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
              {(i.status === 'OPEN' || i.status === 'EXPIRED') && (
                <div className="console-row-actions">
                  <Button size="sm" loading={resending === i.id} disabled={!canChange} aria-label={`Send again to ${i.email}`} onClick={() => onResend(i)}>
                    Send again
                  </Button>
                  <Button size="sm" variant="ghost" disabled={!canChange} aria-label={`Withdraw the invite to ${i.email}`} onClick={() => onAsk({ kind: 'withdraw', invite: i })}>
                    Withdraw
                  </Button>
                </div>
              )}
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
