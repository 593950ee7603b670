import { TeamNav } from '../team-nav.tsx';

/** Placeholders while issue 14's organisation pages are built (replaced in this session). */
export function DepartmentsPage() {
  return <><TeamNav current="/team/departments" /><h1>Departments</h1></>;
}
export function LocationsPage() {
  return <><TeamNav current="/team/locations" /><h1>Locations</h1></>;
}
export function EntitiesPage() {
  return <><TeamNav current="/team/entities" /><h1>Entities</h1></>;
}
