-- Issue 27, review: one offer is booked (or waits for approval) on one trip at most. The index of
-- 038 was per (trip_id, offer_id), so the same offer could be booked, and charged, on two trips.
-- This one is per offer and covers the old one, which goes.
CREATE UNIQUE INDEX travel_bookings_live_offer_once ON travel_bookings (offer_id) WHERE status IN ('PENDING_APPROVAL', 'BOOKED');
DROP INDEX travel_bookings_live_offer;
