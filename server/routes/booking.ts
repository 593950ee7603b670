import {
  cancelBookingRequest, createBookingRequest, getBookingRequest, searchFlights, searchHotels,
} from '../../schema/api/calls-travel.ts';
import { searchFlights as flights, searchHotels as hotels } from '../domain/travel/booking-search.ts';
import { cancelBooking, createBooking, getBooking } from '../domain/travel/bookings.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Issue 27, booking (rules in domain/travel/): search over the generated inventory and booking
 * requests. Every call here is a POST (idempotency-keyed, `ctx.db` the request's transaction)
 * except the GET.
 */
export const bookingHandlers = {
  [searchFlights.id]: async (ctx) => ok(await flights(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()))),

  [searchHotels.id]: async (ctx) => ok(await hotels(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()))),

  [createBookingRequest.id]: async (ctx) => ok(await createBooking(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()))),

  [getBookingRequest.id]: async (ctx) => ok(await getBooking(ctx.db, actorOf(ctx).user, ctx.input.params.booking_id)),

  [cancelBookingRequest.id]: async (ctx) => ok(await cancelBooking(ctx.db, actorOf(ctx).user, ctx.input.params.booking_id, new Date(ctx.deps.now()))),
} satisfies DomainHandlers;
