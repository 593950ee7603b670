import { OrgUnitsPage } from './org-units-page.tsx';

/** Issue 14's organisation pages, as the routes (index.ts) load them lazily. */
export function DepartmentsPage() {
  return <OrgUnitsPage kind="departments" />;
}
export function LocationsPage() {
  return <OrgUnitsPage kind="locations" />;
}
export { EntitiesPage } from './entities-page.tsx';
