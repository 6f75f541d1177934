import { Type, type Static } from '@sinclair/typebox';
import { invalidRequest } from '../../toolkit/errors.ts';
import { Uuid } from '../../toolkit/schemas.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { currentId } from './aliases.ts';

export type CatalogKind = 'song' | 'artist' | 'album';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** The URI the database generates for a catalog row (the `uri` columns); built here for ids read from other tables. */
export function catalogUri(kind: CatalogKind, id: string): string {
  return `earshot:${kind}:${id}`;
}

/** Names one catalog entry by `id` or by `uri`, for reads and writes alike. */
export function referenceSchema(kind: CatalogKind) {
  return Type.Object({
    id: Type.Optional(Uuid({ description: `${kind} id` })),
    uri: Type.Optional(Type.String({ pattern: `^earshot:${kind}:${UUID}$`, description: `earshot:${kind}:<id>` })),
  });
}

/** Names one catalog entry whose kind is given beside it (`kind`), by `id` or by `uri`. */
export function anyKindReferenceSchema() {
  return {
    id: Type.Optional(Uuid({ description: "the entry's id" })),
    uri: Type.Optional(Type.String({ pattern: `^earshot:(song|artist|album):${UUID}$`, description: 'earshot:<kind>:<id>' })),
  };
}

export type CatalogReference = Static<ReturnType<typeof referenceSchema>>;

/** The id a reference names; the two forms must agree when both are given. */
export function referencedId(kind: CatalogKind, reference: CatalogReference): string {
  const fromUri = reference.uri?.slice(`earshot:${kind}:`.length);
  const id = (reference.id ?? fromUri)?.toLowerCase();
  if (!id) throw invalidRequest(`give the ${kind}'s id or uri`);
  if (fromUri && fromUri.toLowerCase() !== id) throw invalidRequest(`id and uri name different ${kind}s`);
  return id;
}

/** As resolvedId, for a reference made with anyKindReferenceSchema: its uri must name a `kind`. */
export function resolvedIdOfKind(db: Database, kind: CatalogKind, reference: CatalogReference): Promise<string> {
  // A uri of another kind would otherwise be cut at this kind's prefix length into a wrong id.
  if (reference.uri !== undefined && !reference.uri.startsWith(`earshot:${kind}:`)) throw invalidRequest(`uri does not name a ${kind}`);
  return resolvedId(db, kind, reference);
}

/** The id a reference names, following a merge to the entry that absorbed it. */
export async function resolvedId(db: Database, kind: CatalogKind, reference: CatalogReference): Promise<string> {
  return currentId(db, kind, referencedId(kind, reference));
}
