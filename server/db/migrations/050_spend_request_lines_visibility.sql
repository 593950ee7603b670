-- Issue 28, spend requests.
--
-- Line ids: a request's line ids are derived from its id (schema/commands/spend-request.ts
-- `requestLines`: the id's first 24 characters, then the position), on the device that makes it
-- offline and on the server alike, so the optimistic row keeps its line ids when the server's row
-- arrives. A request line id becomes its purchase order line's id (purchase_order_lines.id, a
-- primary key), so no two requests may share those 24 characters: a client-chosen id crafted to
-- share them would make another request's purchase order impossible to create. Rows stored before
-- this migration carry random line ids and random ids, so the index builds on them.
CREATE UNIQUE INDEX spend_requests_line_id_prefix ON spend_requests (left(id::text, 24));

-- Visibility: the `spend_request` rule (server/domain/visibility.ts) shows a request to the
-- approvers named on its approvals' steps. Its subquery reads this business's spend_request
-- approvals only (a business's approvals are mostly claims').
CREATE INDEX approvals_object_type ON approvals (business_id, object_type);
