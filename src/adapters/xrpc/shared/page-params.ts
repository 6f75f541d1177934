import { Type } from '@sinclair/typebox';

/** A page of a catalog list: at most `limit` items after skipping `offset`. */
export const PageParams = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
};
