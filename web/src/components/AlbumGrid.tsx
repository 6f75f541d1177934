/**
 * Albums as a grid of cards: cover (or its placeholder), title, artist and a line of details, each
 * card one link (named by all its text, title first). Covers keep a square slot before they load
 * (no layout shift) and load lazily; the grid is two columns on a phone and as many as fit on wider
 * screens (styles.css, .album-grid).
 */
import { Link } from '../router.tsx';
import { Artwork } from './Artwork.tsx';

export interface AlbumCard {
  id: string;
  href: string;
  title: string;
  /** Left out where every album is the same artist's (an artist's page). */
  artist?: string | undefined;
  cover?: string | undefined;
  /** Year, plays, songs: whatever the page has, joined by the caller. */
  detail?: string | undefined;
}

/** `ranked`: the order means something (most played first), so it is an ordered list. */
export function AlbumGrid({ albums, label, ranked = false }: { albums: readonly AlbumCard[]; label: string; ranked?: boolean }) {
  const List = ranked ? 'ol' : 'ul';
  return (
    <List className="album-grid" aria-label={label}>
      {albums.map((album) => (
        <li key={album.id}>
          <Link href={album.href} className="album-card">
            <Artwork src={album.cover} name={album.title} size={160} />
            <span className="title">{album.title}</span>
            {album.artist && <span className="muted">{album.artist}</span>}
            {album.detail && <span className="muted small">{album.detail}</span>}
          </Link>
        </li>
      ))}
    </List>
  );
}
