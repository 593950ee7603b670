import { Link } from '@tanstack/react-router';
import { useCurrentTabInView } from '../../components/subnav.ts';

/** The team section's pages (issue 14), in the order of its sub-navigation. */
export const TEAM_PAGES = [
  { to: '/team', label: 'People' },
  { to: '/team/departments', label: 'Departments' },
  { to: '/team/locations', label: 'Locations' },
  { to: '/team/entities', label: 'Entities' },
  { to: '/team/sso', label: 'Single sign-on' },
] as const;
export type TeamPath = (typeof TEAM_PAGES)[number]['to'];

/**
 * The team section's sub-navigation, above each of its pages' headers (the bill pay section's
 * pattern): plain links, each page its own route and URL, the current one marked for assistive tech.
 */
export function TeamNav({ current }: { current: TeamPath }) {
  const tabs = useCurrentTabInView(current);
  return (
    <nav className="subnav" aria-label="Team" ref={tabs}>
      {TEAM_PAGES.map((p) => (
        // Exact: the router would otherwise mark /team active on every page under it.
        <Link key={p.to} to={p.to} activeOptions={{ exact: true, includeSearch: false }} className={p.to === current ? 'subnav-link active' : 'subnav-link'}
          {...(p.to === current ? { 'aria-current': 'page' as const } : {})}>
          {p.label}
        </Link>
      ))}
    </nav>
  );
}
