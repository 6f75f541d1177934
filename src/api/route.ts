import type { XrpcErrorName } from './errors.ts';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { AppContext } from '../context.ts';
import type { AuthMode, ViewerFor } from './operation.ts';

/**
 * A plain HTTP route outside /xrpc (sign-in, access tokens). Declared like an
 * XRPC operation so it is validated and documented from one place.
 */
export interface Route<P extends TObject = TObject, B extends TSchema = TSchema, A extends AuthMode = AuthMode> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify syntax: `/access-tokens/:id`. */
  path: string;
  summary: string;
  auth: A;
  pathParams: P;
  body: B | undefined;
  /** Success status and its body schema; null for an empty body. */
  success: { status: number; schema: TSchema | null };
  errors: readonly XrpcErrorName[];
  handler(call: { pathParams: Static<P>; body: Static<B>; viewer: ViewerFor<A>; ctx: AppContext }): Promise<unknown>;
}

export type AnyRoute = Route<TObject, TSchema, AuthMode>;

interface RouteDeclaration<P extends TObject, B extends TSchema, A extends AuthMode>
  extends Omit<Route<P, B, A>, 'pathParams' | 'body' | 'errors'> {
  pathParams?: P;
  body?: B;
  errors?: readonly XrpcErrorName[];
}

export function defineRoute<A extends AuthMode, P extends TObject = TObject<{}>, B extends TSchema = TSchema>(
  declaration: RouteDeclaration<P, B, A>,
): AnyRoute {
  return { pathParams: Type.Object({}) as unknown as P, body: undefined, errors: [], ...declaration } as unknown as AnyRoute;
}
