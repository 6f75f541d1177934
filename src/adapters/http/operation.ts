import type { XrpcErrorName } from '../../toolkit/errors.ts';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { AppContext } from '../../core/context.ts';
import type { AuthMode } from '../../core/auth/auth-mode.ts';
import type { Viewer } from '../../core/auth/viewer.ts';

export type ViewerFor<A extends AuthMode> = A extends 'required' | 'account' ? Viewer : Viewer | null;

export interface Call<P extends TSchema, I extends TSchema, A extends AuthMode> {
  params: Static<P>;
  input: Static<I>;
  viewer: ViewerFor<A>;
  ctx: AppContext;
  /** Adds a Set-Cookie header to the answer: only for binding a browser to a flow it started (app.svc.relay.linkLastfm). */
  setCookie(cookie: string): void;
}

/**
 * One XRPC operation: the single declaration from which request validation,
 * handler types, routing and the OpenAPI document are all derived.
 */
export interface Operation<
  P extends TObject = TObject,
  I extends TSchema = TSchema,
  O extends TSchema = TSchema,
  A extends AuthMode = AuthMode,
  N extends string = string,
  K extends 'query' | 'procedure' = 'query' | 'procedure',
> {
  nsid: N;
  kind: K;
  summary: string;
  auth: A;
  params: P;
  input: I | undefined;
  output: O;
  /** Error names the operation may answer with, beyond the generic ones. */
  errors: readonly XrpcErrorName[];
  /** Largest request body in bytes, for procedures whose input outgrows the XRPC default; larger ones get 413. */
  bodyLimit?: number | undefined;
  /** A heavy read (statistics over many plays): each client may have only a few in flight, beyond which it gets 429 (documented from this flag). */
  heavy?: boolean | undefined;
  /**
   * `snapshot`: the answer is kept per caller and parameters and sent again, unchanged, while no
   * transaction has committed since it was computed (response-cache.ts). Only for a query whose
   * answer depends on nothing but committed data, its parameters and the caller's account: no
   * clock (now()), no state outside the database, no credentials beyond whose they are. The
   * declaration says why in a comment.
   */
  cache?: 'snapshot' | undefined;
  handler(call: Call<P, I, A>): Promise<Static<O>>;
}

export type AnyOperation = Operation<TObject, TSchema, TSchema, AuthMode>;

const NO_PARAMS = Type.Object({});
const NO_INPUT = Type.Unknown();

interface QueryDeclaration<P extends TObject, O extends TSchema, A extends AuthMode, N extends string> {
  nsid: N;
  summary: string;
  auth: A;
  params?: P;
  output: O;
  errors?: readonly XrpcErrorName[];
  heavy?: boolean;
  cache?: 'snapshot';
  handler(call: Call<P, typeof NO_INPUT, A>): Promise<Static<O>>;
}

interface ProcedureDeclaration<P extends TObject, I extends TSchema, O extends TSchema, A extends AuthMode, N extends string> {
  nsid: N;
  summary: string;
  auth: A;
  params?: P;
  input?: I;
  output: O;
  errors?: readonly XrpcErrorName[];
  bodyLimit?: number;
  handler(call: Call<P, I, A>): Promise<Static<O>>;
}

function declare(kind: AnyOperation['kind'], declaration: object): unknown {
  return { kind, params: NO_PARAMS, input: undefined, errors: [], ...declaration };
}

/**
 * A read: GET with query parameters. The declaration keeps its nsid and schemas in its type, so
 * clients (the web app) derive each operation's parameters and answer from it (client-types.ts).
 */
export function defineQuery<O extends TSchema, A extends AuthMode, N extends string, P extends TObject = typeof NO_PARAMS>(
  declaration: QueryDeclaration<P, O, A, N>,
): Operation<P, typeof NO_INPUT, O, A, N, 'query'> {
  return declare('query', declaration) as Operation<P, typeof NO_INPUT, O, A, N, 'query'>;
}

/** A write: POST with a JSON body. */
export function defineProcedure<
  O extends TSchema,
  A extends AuthMode,
  N extends string,
  P extends TObject = typeof NO_PARAMS,
  I extends TSchema = typeof NO_INPUT,
>(declaration: ProcedureDeclaration<P, I, O, A, N>): Operation<P, I, O, A, N, 'procedure'> {
  return declare('procedure', declaration) as Operation<P, I, O, A, N, 'procedure'>;
}
