import {
  createTrip, deleteTrip, deleteTravelPolicy, getTravelPolicy, getTravelSettings, getTravelerProfile, getTrip, linkTripSpend, listTrips,
  listTravelRewards, patchTrip, putTravelPolicy, putTravelSettings, putTravelerProfile, unlinkTripSpend, voidTravelReward,
} from '../../schema/api/calls-travel.ts';
import type { TripFilter } from '../../schema/entities/trip.ts';
import { ApiError } from '../core/errors.ts';
import { listTravelRewards as listRewards, voidTravelReward as voidReward } from '../domain/travel/rewards.ts';
import { getTravelerProfile as readProfile, putTravelerProfile as writeProfile } from '../domain/travel/profile.ts';
import {
  deleteTravelPolicy as resetPolicy, putTravelPolicy as writePolicy, putTravelSettings as writeSettings, travelPolicyOf, travelSettingsOf,
} from '../domain/travel/settings.ts';
import { linkSpend, unlinkSpend } from '../domain/travel/spend.ts';
import { createTrip as create, deleteTrip as remove, findTrip, listTrips as list, patchTrip as patch } from '../domain/travel/trips.ts';
import { visibilityOf } from '../domain/visibility.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Trips, their spend events, the travel policy and settings, the traveller's profile, travel rewards (issue 27;
 * domain/travel/). POST and PATCH run in register's transaction; PUT and DELETE open their own.
 */
export const tripHandlers = {
  [createTrip.id]: async (ctx) => ok(await create(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()))),

  [getTrip.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const trip = await findTrip(ctx.db, user.business_id, await visibilityOf(ctx.db, user), ctx.input.params.trip_id);
    if (!trip) throw new ApiError('REQUEST_7004');
    return ok(trip);
  },

  [listTrips.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    return ok(await list(ctx.db, user.business_id, await visibilityOf(ctx.db, user), {
      filter: filter as TripFilter, pageSize: page_size, start, includeCount: include_count === true, now: new Date(ctx.deps.now()),
    }));
  },

  [patchTrip.id]: async (ctx) =>
    ok(await patch(ctx.db, actorOf(ctx).user, ctx.input.params.trip_id, ctx.input.body, new Date(ctx.deps.now()))),

  [deleteTrip.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => remove(tx, user, ctx.input.params.trip_id)));
  },

  [linkTripSpend.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => linkSpend(tx, user, ctx.input.params.trip_id, ctx.input.body)));
  },

  [unlinkTripSpend.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => unlinkSpend(tx, user, ctx.input.params.trip_id, ctx.input.body)));
  },

  [getTravelPolicy.id]: async (ctx) => ok(await travelPolicyOf(ctx.db, actorOf(ctx).businessId)),
  [putTravelPolicy.id]: async (ctx) => ok(await writePolicy(ctx.deps.db, actorOf(ctx).user, ctx.input.body)),
  [deleteTravelPolicy.id]: async (ctx) => ok(await resetPolicy(ctx.deps.db, actorOf(ctx).user)),

  [getTravelSettings.id]: async (ctx) => ok(await travelSettingsOf(ctx.db, actorOf(ctx).businessId)),
  [putTravelSettings.id]: async (ctx) => ok(await writeSettings(ctx.deps.db, actorOf(ctx).user, ctx.input.body)),

  [getTravelerProfile.id]: async (ctx) => ok({ profile: await readProfile(ctx.db, actorOf(ctx).user) }),
  [putTravelerProfile.id]: async (ctx) => ok({ profile: await writeProfile(ctx.deps.db, actorOf(ctx).user, ctx.input.body) }),

  [listTravelRewards.id]: async (ctx) => {
    const { page_size, start, include_count, user_id } = ctx.input.query;
    return ok(await listRewards(ctx.db, actorOf(ctx).user, { pageSize: page_size, start, includeCount: include_count === true, userId: user_id }));
  },
  [voidTravelReward.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => voidReward(tx, user, ctx.input.params.reward_id, new Date(ctx.deps.now()))));
  },
} satisfies DomainHandlers;
