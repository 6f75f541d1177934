import { Type } from '@sinclair/typebox';

/** A page of scrobbles (getFeed, getActorScrobbles): keyset-paged by the cursor the previous page answered. */
export const FeedPageParams = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'scrobbles per page' }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the `cursor` of the previous page' })),
};

export const FeedCursor = Type.Optional(Type.String({ description: 'pass as `cursor` for the next page; absent on the last page' }));
