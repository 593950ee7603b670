-- Issue 33: the first page in a second for every person. A manager's or an employee's feed page
-- (server/feed/changes.ts) walks each visible person's rows newest seq first down this index
-- (business_id, user_id, change_seq), instead of filtering the business's feed index row by row
-- or fetching every row of the team and sorting it. The tables whose rows are visible by person
-- (visibility `owner`) and grow with spend: transactions and reimbursements.
CREATE INDEX transactions_user_feed ON transactions (business_id, user_id, change_seq);
CREATE INDEX reimbursements_user_feed ON reimbursements (business_id, user_id, change_seq);
