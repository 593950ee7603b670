/**
 * Issue 31: the link an application invite mails (application.inviteApplicant:
 * `/application/start?application=<id>&invite=<token>`). The start page passes both at
 * application.verify, which joins that application as a co-applicant.
 */
export interface ApplicationInviteLink {
  inviteToken: string;
  financingApplicationId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** application.verify's `invite_token`: 16–128 characters; the server mails base64url. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** The invite a start page's query carries: none without `invite`, `broken` when a part is missing or malformed. */
export function inviteLinkOf(search: string): ApplicationInviteLink | 'broken' | null {
  const q = new URLSearchParams(search);
  const token = q.get('invite');
  if (token === null) return null;
  const app = q.get('application') ?? '';
  if (!TOKEN.test(token.trim()) || !UUID.test(app.trim())) return 'broken';
  return { inviteToken: token.trim(), financingApplicationId: app.trim().toLowerCase() };
}
