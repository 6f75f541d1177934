/** The catalog's admin edits as calls: fixing fields, merging, undoing; and their refusals in words. */
import { procedure, XrpcFailure, type Input } from '../../api/xrpc.ts';
import { sentence } from '../../components/play-correction.ts';
import type { EntryKind } from './catalog-fields.ts';

const MERGE = { artist: 'app.svc.artist.mergeArtists', album: 'app.svc.album.mergeAlbums', song: 'app.svc.song.mergeSongs' } as const;

export const mergeEntry = (kind: EntryKind, from: string, into: string) => procedure(MERGE[kind], { from, into });

export function updateEntry(kind: EntryKind, id: string, changes: Record<string, unknown>) {
  // The form's fields are FIELDS[kind], each one of the operation's own (catalog-fields.ts).
  if (kind === 'artist') return procedure('app.svc.artist.updateArtist', { id, ...changes } as Input<'app.svc.artist.updateArtist'>);
  if (kind === 'album') return procedure('app.svc.album.updateAlbum', { id, ...changes } as Input<'app.svc.album.updateAlbum'>);
  return procedure('app.svc.song.updateSong', { id, ...changes } as Input<'app.svc.song.updateSong'>);
}

export const undoEdit = (id: number) => procedure('app.svc.catalog.undoEdit', { id });

export function editFailure(error: unknown): string {
  if (error instanceof XrpcFailure && error.error === 'Forbidden') return 'Only an admin of this server can edit the catalog.';
  if (error instanceof XrpcFailure) return sentence(error.message);
  return error instanceof Error ? error.message : String(error);
}
