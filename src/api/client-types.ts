/**
 * Every XRPC operation's parameters, input and answer as types, derived from the declarations
 * the server serves (registry.ts): clients (the web app) import these types only, so they call
 * operations by nsid with the server's own types and never a hand-written copy.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { operations } from './registry.ts';

type Declared = (typeof operations)[number];

export interface XrpcCall<D extends { kind: string; params: TSchema; input: TSchema | undefined; output: TSchema }> {
  kind: D['kind'];
  params: Static<D['params']>;
  input: D['input'] extends TSchema ? Static<D['input']> : undefined;
  output: Static<D['output']>;
}

/** By nsid: what the operation takes and answers. */
export type XrpcOperations = { [D in Declared as D['nsid']]: XrpcCall<D> };

export type Nsid = keyof XrpcOperations;
export type QueryNsid = { [N in Nsid]: XrpcOperations[N]['kind'] extends 'query' ? N : never }[Nsid];
export type ProcedureNsid = Exclude<Nsid, QueryNsid>;
export type { XrpcErrorName } from './errors.ts';
