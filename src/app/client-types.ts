/**
 * Every XRPC operation's parameters, input and answer as types, derived from the declarations
 * the server serves (registry.ts): clients (the web app) import these types only, so they call
 * operations by nsid with the server's own types and never a hand-written copy.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { operations, routes } from './registry.ts';

type Declared = (typeof operations)[number];
type StaticOr<S, Absent> = [S] extends [TSchema] ? Static<S> : Absent;

export interface XrpcCall<D extends { kind: string; params: TSchema; input: TSchema | undefined; output: TSchema }> {
  kind: D['kind'];
  params: Static<D['params']>;
  input: StaticOr<Exclude<D['input'], undefined>, undefined>;
  output: Static<D['output']>;
}

/** By nsid: what the operation takes and answers. */
export type XrpcOperations = { [D in Declared as D['nsid']]: XrpcCall<D> };

export type Nsid = keyof XrpcOperations;
export type QueryNsid = { [N in Nsid]: XrpcOperations[N]['kind'] extends 'query' ? N : never }[Nsid];
export type ProcedureNsid = Exclude<Nsid, QueryNsid>;
export type { XrpcErrorName } from '../toolkit/errors.ts';

type DeclaredRoute = (typeof routes)[number];

/** The plain routes (sign-in, sessions, access tokens, providers, export) by "METHOD /path". */
export type RouteCalls = {
  [R in DeclaredRoute as `${R['method']} ${R['path']}`]: {
    pathParams: Static<R['pathParams']>;
    query: Static<R['query']>;
    body: StaticOr<Exclude<R['body'], undefined>, undefined>;
    output: StaticOr<R['success']['schema'], undefined>;
  };
};
export type RouteKey = keyof RouteCalls;
