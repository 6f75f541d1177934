import type { AlbumView } from '../../core/library/views.ts';

/** getAlbumList's folder-style album entry (a `Child` with isDir), from the ID3 album. */
export function albumChild(album: AlbumView) {
  return {
    id: album.id,
    parent: album.artistId,
    isDir: true,
    title: album.name,
    name: album.name,
    album: album.name,
    artist: album.artist,
    year: album.year,
    genre: album.genre,
    coverArt: album.coverArt,
    songCount: album.songCount,
    duration: album.duration,
    playCount: album.playCount,
    created: album.created,
    starred: album.starred,
    artistId: album.artistId,
  };
}
