-- Issue 32, saved views (docs/design/issue-32-saved-views.md): a named copy of one list's URL
-- search state, owned by a spend user, personal or shared with the business. The id is the
-- client's (PUT by id creates or replaces), so a retried save never makes a second row.
CREATE TABLE saved_views (
  id          uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id),
  owner_id    uuid NOT NULL REFERENCES spend_users (id),
  list        text NOT NULL CHECK (length(list) <= 40),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  -- Flat strings as the URL holds them (§5); the keys are checked per list by the server.
  state       jsonb NOT NULL DEFAULT '{}',
  shared      boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- The menu reads one list's views: the caller's own and the business's shared ones.
CREATE INDEX saved_views_list ON saved_views (business_id, list, owner_id);
