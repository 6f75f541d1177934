import { sql } from 'kysely';

/**
 * The one cover rule of every song read (catalog song views, search, artist and album pages,
 * scrobbles, Wrapped, Last.fm track lists): the song's own art, else its album's. A library scan gives an album the cover any one
 * of its files embeds, so every song of that album shows it, not only the song that carries it.
 */
/** The art of the track `trackAlias` names (a table alias with album_art and album_id). */
export const songArt = (trackAlias: string) =>
  sql<string | null>`coalesce(${sql.ref(`${trackAlias}.album_art`)}, (select sa.album_art from albums sa where sa.id = ${sql.ref(`${trackAlias}.album_id`)}))`;
