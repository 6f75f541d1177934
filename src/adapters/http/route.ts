import type { XrpcErrorName } from '../../toolkit/errors.ts';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { AppContext } from '../../core/context.ts';
import type { AuthMode } from '../../core/auth/auth-mode.ts';
import type { ViewerFor } from './operation.ts';

/**
 * A plain HTTP route outside /xrpc (sign-in, access tokens). Declared like an
 * XRPC operation so it is validated and documented from one place.
 */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Route<
  P extends TObject = TObject,
  B extends TSchema = TSchema,
  A extends AuthMode = AuthMode,
  Q extends TObject = TObject,
  M extends RouteMethod = RouteMethod,
  Path extends string = string,
  S extends TSchema | null = TSchema | null,
> {
  method: M;
  /** Fastify syntax: `/access-tokens/:id`. */
  path: Path;
  summary: string;
  auth: A;
  pathParams: P;
  query: Q;
  body: B | undefined;
  /**
   * Success status and its body schema; null for an empty body. A 3xx status redirects: the
   * handler answers the Location URL. With `download` (a content type), the handler answers a
   * Download: a file streamed as an attachment.
   */
  success: { status: number; schema: S; download?: string };
  errors: readonly XrpcErrorName[];
  handler(call: RouteCall<P, B, A, Q>): Promise<unknown>;
}

export interface RouteCall<P extends TObject, B extends TSchema, A extends AuthMode, Q extends TObject> {
  pathParams: Static<P>;
  query: Static<Q>;
  body: Static<B>;
  viewer: ViewerFor<A>;
  ctx: AppContext;
  /** The client's User-Agent header, if it sent one. */
  userAgent: string | undefined;
  /** The request's cookies by name. */
  cookies: Readonly<Record<string, string>>;
  /** Adds a Set-Cookie header (the whole value: `name=value; attributes`) to the answer. */
  setCookie(cookie: string): void;
}

export type AnyRoute = Route<TObject, TSchema, AuthMode, TObject>;

interface RouteDeclaration<
  P extends TObject,
  B extends TSchema,
  A extends AuthMode,
  Q extends TObject,
  M extends RouteMethod,
  Path extends string,
  S extends TSchema | null,
> extends Omit<Route<P, B, A, Q, M, Path, S>, 'pathParams' | 'query' | 'body' | 'errors'> {
  pathParams?: P;
  query?: Q;
  body?: B;
  errors?: readonly XrpcErrorName[];
}

/** A route; like an operation, it keeps its method, path and schemas in its type for clients (client-types.ts). */
export function defineRoute<
  A extends AuthMode,
  M extends RouteMethod,
  Path extends string,
  S extends TSchema | null,
  // biome-ignore lint/complexity/noBannedTypes: a route without path parameters: TypeBox's empty object
  P extends TObject = TObject<{}>,
  B extends TSchema = TSchema,
  // biome-ignore lint/complexity/noBannedTypes: a route without query parameters: TypeBox's empty object
  Q extends TObject = TObject<{}>,
>(declaration: RouteDeclaration<P, B, A, Q, M, Path, S>): Route<P, B, A, Q, M, Path, S> {
  return { pathParams: Type.Object({}), query: Type.Object({}), body: undefined, errors: [], ...declaration } as unknown as Route<P, B, A, Q, M, Path, S>;
}

/** What a download route's handler answers: the attachment's file name and its bytes, streamed. */
export interface Download {
  filename: string;
  body: NodeJS.ReadableStream;
}

/** Whether a route answers with a redirect rather than a body. */
export const redirects = (route: AnyRoute) => route.success.status >= 300 && route.success.status < 400;
