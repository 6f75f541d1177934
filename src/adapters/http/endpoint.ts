import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import type { ErrorRenderer } from './error-path.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The public hosts, and the metrics listener when it has an address of its own. */
export type HostName = 'api' | 'scrobbler' | 'metrics';

/**
 * What a protocol brings to the endpoints it declares: its name, how it writes an error, and
 * which other methods a declared path refuses with 405 (none: Fastify's 404, as the protocol
 * always answered them).
 */
export interface Protocol {
  name: string;
  renderError: ErrorRenderer;
  methodNotAllowed?: {
    /** The methods that get a 405 on a path declared for others. */
    methods: readonly HttpMethod[];
    message(path: string, allowed: readonly HttpMethod[]): string;
  };
}

/**
 * How an endpoint finds its caller. `headers` checks run in onRequest, before the body is read,
 * so an unauthenticated caller learns nothing about the body and a large one is never buffered;
 * `body` checks are for protocols whose credentials travel in a form (Subsonic, Last.fm), once it
 * is parsed. A check throws the protocol's refusal, or answers what the handler gets as `credentials`.
 */
export interface CredentialCheck<C> {
  stage: 'headers' | 'body';
  /** In words, for the OpenAPI document. */
  description: string;
  check(request: FastifyRequest, ctx: AppContext): Promise<C>;
}

export interface EndpointCall<C> {
  request: FastifyRequest;
  reply: FastifyReply;
  ctx: AppContext;
  credentials: C;
}

/** An OpenAPI operation object without its summary (the endpoint's own); `x-` members are kept. */
export type OpenApiOperation = Record<string, unknown>;

/** Fastify route options an endpoint may set beyond its method, path and handler. */
export type EndpointRouteOptions = Pick<RouteOptions, 'bodyLimit' | 'schema' | 'constraints' | 'preValidation'>;

/**
 * One HTTP endpoint of either host, whatever its protocol: the single declaration from which its
 * route, its credentials check, its error path, its 405 rule and its OpenAPI entry are derived.
 * The protocols' own declarations (XRPC operations, routes, Subsonic and Last.fm methods) are
 * built into endpoints by thin builders in their adapters.
 */
export interface Endpoint<C = unknown> {
  method: HttpMethod | readonly HttpMethod[];
  /** Fastify syntax, in full: `/1/user/:user_name/listens`. */
  path: string;
  host: HostName;
  protocol: Protocol;
  summary: string;
  credentials?: CredentialCheck<C> | undefined;
  openapi: OpenApiOperation;
  /** Where the OpenAPI document lists it when not at `path`: relative to the document's own server (XRPC operations, under /xrpc). */
  openapiPath?: string | undefined;
  route?: EndpointRouteOptions | undefined;
  handler(call: EndpointCall<C>): Promise<unknown>;
}

/** Keeps the credentials' type between the check and the handler. */
export function defineEndpoint<C = undefined>(endpoint: Endpoint<C>): Endpoint<C> {
  return endpoint;
}

// biome-ignore lint/suspicious/noExplicitAny: endpoints of every credentials type are registered together
export type AnyEndpoint = Endpoint<any>;

export const methodsOf = (endpoint: AnyEndpoint): HttpMethod[] => [endpoint.method].flat() as HttpMethod[];
