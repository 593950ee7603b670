import { TeamNav } from './team-nav.tsx';

/** Placeholder while issue 14's people page is built (replaced in this session). */
export function PeoplePage() {
  return (
    <>
      <TeamNav current="/team" />
      <h1>Team</h1>
    </>
  );
}
