export { likeSong, songLikesCount, songLiked, unlikeSong } from './likes.ts';
export { trackFields, type TrackRow, type TrackLikes } from './song-view.ts';
export { catalogUri } from './references.ts';
