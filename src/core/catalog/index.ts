import { actorOperations } from './actor-operations.ts';
import { artistAlbumOperations } from './artist-album-operations.ts';
import { catalogEditOperations } from './edits/operations.ts';
import { search } from './search-operation.ts';
import { songOperations } from './song-operations.ts';

export { likeSong, songLikesCount, songLiked, unlikeSong } from './likes.ts';
export { trackFields, type TrackRow, type TrackLikes } from './song-view.ts';
export { catalogUri } from './references.ts';

export const catalogOperations = [...songOperations, ...artistAlbumOperations, search, ...actorOperations, ...catalogEditOperations];
