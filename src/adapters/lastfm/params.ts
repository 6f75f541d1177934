import { Refusal } from '../../toolkit/errors.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mbidOrUndefined, type TrackMetadata } from '../../core/catalog/track-metadata.ts';
import { submissionProblem } from '../../core/scrobbling/listen-rules.ts';

/** Request parameters by name; a repeated name keeps its first value. */
export type Params = ReadonlyMap<string, string>;

/** A missing or malformed parameter; each protocol answers it in its own words. */
export class InvalidParameter extends Refusal {
  readonly status = 400;
}

export function requiredParam(params: Params, name: string, suffix = ''): string {
  const value = params.get(name);
  if (value === undefined) throw new InvalidParameter(`${name}${suffix} is required`);
  return value;
}

/** Blank counts as absent: clients send empty fields for what they do not know. */
export function optionalText(params: Params, name: string): string | undefined {
  return params.get(name)?.trim() || undefined;
}

export function optionalCount(params: Params, name: string, suffix = '', max = 999_999_999): number | undefined {
  const raw = optionalText(params, name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max) throw new InvalidParameter(`${name}${suffix} must be a whole number up to ${max}`);
  return Number(raw);
}

/** A whole-second UNIX time such as `timestamp` (track.scrobble, library.removeScrobble). */
export function unixSeconds(params: Params, name: string, suffix = ''): { text: string; seconds: number } {
  const text = requiredParam(params, name, suffix).trim();
  if (!/^\d{1,11}$/.test(text)) throw new InvalidParameter(`${name}${suffix} must be a UNIX timestamp in seconds`);
  return { text, seconds: Number(text) };
}

/** Durations are stored in milliseconds as 32-bit integers: a little under 25 days. */
export const MAX_DURATION_SECONDS = 24 * 24 * 3600;

/** Clients send whatever id their tags carry; only a MusicBrainz UUID helps matching. */
export function musicBrainzId(params: Params, name: string): string | undefined {
  return mbidOrUndefined(optionalText(params, name));
}

/**
 * listen-rules' check of a track a form names (Last.fm and Audioscrobbler alike): the first
 * problem refuses the whole request as a malformed parameter, so nothing is stored by halves.
 * `suffix` names the play in a batch (`[3]`).
 */
export function requireStorable(metadata: TrackMetadata, submitted: Record<string, string>, suffix = ''): void {
  const problem = submissionProblem({ ...metadata, submitted });
  if (problem) throw new InvalidParameter(suffix ? `play ${suffix}: ${problem}` : problem);
}

export function parseForm(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) if (!params.has(name)) params.set(name, value);
  return params;
}

/** Both legacy protocols post `application/x-www-form-urlencoded` bodies; they arrive as Params. */
export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseForm(body as string));
  });
}

/** Query string and form body together; the body wins where both name a parameter. */
export function requestParams(request: FastifyRequest): Map<string, string> {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const params = parseForm(query);
  if (request.body instanceof Map) for (const [name, value] of request.body as Params) params.set(name, value);
  return params;
}

const INDEXED_NAME = /^([A-Za-z]+)\[(\d{1,6})\]$/;

export interface IndexedGroup {
  index: number;
  fields: Map<string, string>;
}

/** Groups batch parameters written `name[i]` by index, in index order. */
export function indexedGroups(params: Params): IndexedGroup[] {
  const groups = new Map<number, Map<string, string>>();
  for (const [name, value] of params) {
    const match = INDEXED_NAME.exec(name);
    if (!match) continue;
    const index = Number(match[2]);
    if (!groups.has(index)) groups.set(index, new Map());
    groups.get(index)!.set(match[1]!, value);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([index, fields]) => ({ index, fields }));
}
