import { TeamNav } from '../team-nav.tsx';

/** Placeholder while issue 14's single sign-on page is built (replaced in this session). */
export function SsoPage() {
  return <><TeamNav current="/team/sso" /><h1>Single sign-on</h1></>;
}
