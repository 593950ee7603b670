import type { FirmClient, FirmView } from '../../../../workers/api.ts';

type Member = FirmView['members'][number];
type Invite = FirmView['invites'][number];
type Role = Member['role'];

/**
 * Issue 31, the console's Team page as people read it (pure, table-tested in team-model.test.ts):
 * who is in the firm, in which role, which clients each works on, and the open invites.
 */
export const ROLE_WORDS: Record<Role, { name: string; does: string }> = {
  EXTERNAL_FIRM_ADMIN: { name: 'Admin', does: 'Invites and removes people, sends proposals and sees every client of the firm' },
  EXTERNAL_FIRM_USER: { name: 'Member', does: 'Works on the clients assigned to them' },
};

export const INVITE_WORDS: Record<Invite['status'], { text: string; tone: 'neutral' | 'info' | 'ok' | 'warn' | 'danger' }> = {
  OPEN: { text: 'Invited — not joined yet', tone: 'info' },
  ACCEPTED: { text: 'Joined', tone: 'ok' },
  EXPIRED: { text: 'Invite expired', tone: 'warn' },
  REVOKED: { text: 'Invite withdrawn', tone: 'neutral' },
};

export interface TeamRow {
  member: Member;
  name: string;
  isMe: boolean;
  /** The clients this person works on, by name (as far as the caller can see them). */
  clients: string[];
  /** The same clients as the console lists them (an admin takes someone off one by its authorization). */
  work: FirmClient[];
}

export const fullName = (m: Pick<Member, 'first_name' | 'last_name' | 'email'>): string =>
  `${m.first_name} ${m.last_name}`.trim() || m.email;

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/** The firm's people: you first, then admins, then members, each by name; their clients by name. */
export function teamRows(view: Pick<FirmView, 'me' | 'members'>, clients: readonly FirmClient[]): TeamRow[] {
  const rank = (m: Member) => (m.id === view.me.id ? 0 : m.role === 'EXTERNAL_FIRM_ADMIN' ? 1 : 2);
  return view.members
    .map((member) => {
      const work = clients.filter((c) => c.assigned_firm_user_ids.includes(member.id)).sort((a, b) => byName(a.business_name, b.business_name));
      return { member, name: fullName(member), isMe: member.id === view.me.id, clients: work.map((c) => c.business_name), work };
    })
    .sort((a, b) => rank(a.member) - rank(b.member) || byName(a.name, b.name));
}

/** "Works on Acme, Harbor Bakery" / "No clients assigned"; a member sees only the clients they share. */
export function clientsText(row: TeamRow, callerIsAdmin: boolean): string {
  if (row.clients.length > 0) return `Works on ${row.clients.join(', ')}`;
  if (row.isMe || callerIsAdmin) return 'No clients assigned';
  return 'No clients you share';
}

/** Open invites first (soonest to expire first), then the rest by email. */
export function inviteRows(invites: readonly Invite[]): Invite[] {
  const open = (i: Invite) => (i.status === 'OPEN' ? 0 : 1);
  return [...invites].sort((a, b) => open(a) - open(b) || a.expires_at.localeCompare(b.expires_at) || a.email.localeCompare(b.email));
}

export const isFirmAdmin = (view: Pick<FirmView, 'me'>): boolean => view.me.role === 'EXTERNAL_FIRM_ADMIN';
