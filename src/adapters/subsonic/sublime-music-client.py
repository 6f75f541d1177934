"""Drives Sublime Music's own Subsonic adapter (Debian package sublime-music) against a server.

Usage: python3 sublime-music-client.py <server URL> <username> <password> <search query>

Run with the Python the sublime-music package runs under (the shebang of its launcher). The
adapter is the player's whole network side: every request the GUI makes goes through these
methods, so calling them headlessly sends what the app sends. Importing it needs PyGObject's
Gtk module but no display. Prints one JSON object: what each step returned, or the error it raised
under "error", so the test can say which step failed and why.
"""

import hashlib
import json
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import requests
from sublime_music.adapters import AlbumSearchQuery, ConfigurationStore
from sublime_music.adapters.subsonic import SubsonicAdapter


def connect(server: str, username: str, password: str, data_dir: Path, salt_auth: bool) -> SubsonicAdapter:
    """An adapter configured as the "Add server" form configures it."""
    config = ConfigurationStore(server_address=server, username=username, verify_cert=True, sync_enabled=True, salt_auth=salt_auth)
    config.set_secret("password", password)
    return SubsonicAdapter(config, data_dir)


def ping(adapter: SubsonicAdapter) -> dict:
    """The form's "verify configuration" ping, which also learns the server's API version (the form waits 2 s; a busy CI machine gets 10)."""
    adapter._get_json(adapter._make_url("ping"), timeout=10, is_exponential_backoff_ping=True)
    return {"available": bool(adapter.ping_status), "version": adapter._version.value.decode()}


def fetch(uri: str) -> dict:
    """What the player's downloader and media player do with a URI the adapter hands out."""
    response = requests.get(uri, timeout=10)
    return {
        "status": response.status_code,
        "contentType": response.headers.get("content-type"),
        "size": len(response.content),
        "sha256": hashlib.sha256(response.content).hexdigest(),
    }


def seconds(duration: timedelta) -> float:
    return duration.total_seconds() if duration else None


def song_view(song) -> dict:
    return {
        "id": song.id,
        "title": song.title,
        "path": song.path,
        "artist": song.artist.name if song.artist else None,
        "album": song.album.name if song.album else None,
        "track": song.track,
        "disc": song.disc_number,
        "year": song.year,
        "duration": seconds(song.duration),
        "size": song.size,
        "coverArt": song.cover_art,
        "genre": song.genre.name if song.genre else None,
    }


def album_view(album) -> dict:
    return {
        "id": album.id,
        "name": album.name,
        "artist": album.artist.name if album.artist else None,
        "songCount": album.song_count,
        "year": album.year,
        "duration": seconds(album.duration),
        "coverArt": album.cover_art,
        "genre": album.genre.name if album.genre else None,
        "songs": [song_view(song) for song in album.songs],
    }


def playlist_view(playlist) -> dict:
    return {
        "id": playlist.id,
        "name": playlist.name,
        "comment": playlist.comment,
        "public": playlist.public,
        "owner": playlist.owner,
        "songCount": playlist.song_count,
        "duration": seconds(playlist.duration),
        "coverArt": playlist.cover_art,
        "songs": [song.title for song in playlist.songs],
    }


class Session:
    """Runs named steps in order, recording each one's result or error."""

    def __init__(self):
        self.results: dict = {}

    def step(self, name: str, action):
        try:
            value = action()
            self.results[name] = value
            return value
        except Exception as error:  # any failure is reported, not raised: later steps still run
            self.results[name] = {"error": f"{type(error).__name__}: {error}"}
            return None


def artist_view(artist) -> dict:
    return {"id": artist.id, "name": artist.name, "albumCount": artist.album_count, "image": artist.artist_image_url, "albums": [a.name for a in artist.albums]}


def album_names(adapter: SubsonicAdapter, type_: AlbumSearchQuery.Type, **query) -> list:
    """One of the album lists of the Albums tab (the adapter pages through getAlbumList2 until a page is empty)."""
    return [album.name for album in adapter.get_albums(AlbumSearchQuery(type_, **query))]


def browse(adapter: SubsonicAdapter, step) -> list:
    """The Artists, Albums and Browse tabs; answers the albums in name order."""
    artists = step("artists", lambda: [artist_view(a) for a in adapter.get_artists()]) or []
    step("ignoredArticles", lambda: sorted(adapter.get_ignored_articles()))
    if artists:
        step("artist", lambda: artist_view(adapter.get_artist(artists[0]["id"])))
    by_name = step("albumsByName", lambda: [album_view(a) for a in adapter.get_albums(AlbumSearchQuery(AlbumSearchQuery.Type.ALPHABETICAL_BY_NAME))]) or []
    step("albumsByArtist", lambda: album_names(adapter, AlbumSearchQuery.Type.ALPHABETICAL_BY_ARTIST))
    step("albumsNewest", lambda: album_names(adapter, AlbumSearchQuery.Type.NEWEST))
    step("albumsStarred", lambda: album_names(adapter, AlbumSearchQuery.Type.STARRED))
    step("albumsRandom", lambda: sorted(album_names(adapter, AlbumSearchQuery.Type.RANDOM)))
    genres = step("genres", lambda: [{"name": g.name, "songCount": g.song_count, "albumCount": g.album_count} for g in adapter.get_genres()]) or []
    if genres:
        genre = AlbumSearchQuery._Genre(genres[0]["name"])
        step("albumsByGenre", lambda: album_names(adapter, AlbumSearchQuery.Type.GENRE, genre=genre))
    step("albumsByYear", lambda: album_names(adapter, AlbumSearchQuery.Type.YEAR_RANGE, year_range=(2000, 2030)))
    step("directories", lambda: folders(adapter))
    return by_name


def folders(adapter: SubsonicAdapter) -> dict:
    """The Browse tab: the root's folders, then the first one's children (folders have names, songs titles)."""
    root = adapter.get_directory("root")
    first = adapter.get_directory(root.children[0].id)
    children = [getattr(child, "name", None) or child.title for child in first.children]
    return {"root": [child.name for child in root.children], "first": {"name": first.name, "children": children}}


def play(adapter: SubsonicAdapter, album: dict, step) -> None:
    """Playing the album's first song: its details, the stream, the offline copy, the cover, the scrobble, then the lists of played albums."""
    song_id = album["songs"][0]["id"]
    step("song", lambda: song_view(adapter.get_song_details(song_id)))
    step("stream", lambda: fetch(adapter.get_song_stream_uri(song_id)))
    step("download", lambda: fetch(adapter.get_song_file_uri(song_id, ["http", "https"])))
    step("scrobble", lambda: scrobble(adapter, song_id))
    if album.get("coverArt"):
        step("coverArt", lambda: fetch(adapter.get_cover_art_uri(album["coverArt"], "http", 300)))
    step("albumsFrequent", lambda: album_names(adapter, AlbumSearchQuery.Type.FREQUENT))
    step("albumsRecent", lambda: album_names(adapter, AlbumSearchQuery.Type.RECENT))


def search(adapter: SubsonicAdapter, query: str) -> dict:
    """The search box, with the app's own filtering of what search3 answers."""
    found = adapter.search(query)
    return {"artists": [a.name for a in found.artists], "albums": [a.name for a in found.albums], "songs": [s.title for s in found.songs]}


def tour(adapter: SubsonicAdapter, search_query: str, step) -> None:
    step("ping", lambda: ping(adapter))
    step("capabilities", lambda: {"genres": adapter.can_get_genres, "playQueue": adapter.can_get_play_queue})
    by_name = browse(adapter, step)
    album = step("album", lambda: album_view(adapter.get_album(by_name[0]["id"]))) if by_name else None
    songs = album.get("songs", []) if album else []
    if songs:
        play(adapter, album, step)
    step("search", lambda: search(adapter, search_query))
    if len(songs) >= 2:
        step("playlists", lambda: playlists(adapter, [song["id"] for song in songs]))
    if songs:
        step("playQueue", lambda: play_queue(adapter, [song["id"] for song in songs]))


def scrobble(adapter: SubsonicAdapter, song_id: str) -> bool:
    """What the player sends once a song has played long enough: no submission flag, no time."""
    adapter.scrobble_song(adapter.get_song_details(song_id))
    return True


def playlists(adapter: SubsonicAdapter, ids: list) -> dict:
    """Create, rename and make public (public=True), append, reorder, list, then delete."""
    created = adapter.create_playlist("Road trip", songs=[adapter.get_song_details(ids[0])])
    edited = adapter.update_playlist(created.id, name="Road trip 2", comment="for the drive", public=True, append_song_ids=[ids[1]])
    reordered = adapter.update_playlist(created.id, song_ids=[ids[1], ids[0], ids[1]])
    listed = [playlist_view(p) for p in adapter.get_playlists()]
    adapter.delete_playlist(created.id)
    return {
        "created": playlist_view(created) if created else None,
        "edited": playlist_view(edited),
        "reordered": playlist_view(reordered),
        "listed": listed,
        "cover": fetch(adapter.get_cover_art_uri(edited.cover_art, "http", 300)) if edited.cover_art else None,
        "afterDelete": [p.name for p in adapter.get_playlists()],
    }


def play_queue(adapter: SubsonicAdapter, ids: list) -> dict:
    """What "Sync Play Queue" saves every few seconds and reads back on another device."""
    adapter.save_play_queue(ids, current_song_index=len(ids) - 1, position=timedelta(seconds=12.5))
    queue = adapter.get_play_queue()
    position = queue.position.total_seconds()
    return {"songs": [song.id for song in queue.songs], "currentIndex": queue.current_index, "position": position, "changedBy": queue.changed_by}


def main() -> None:
    server, username, password, search_query = sys.argv[1:5]
    session = Session()
    with tempfile.TemporaryDirectory() as data_dir:
        adapter = connect(server, username, password, Path(data_dir), salt_auth=True)
        try:
            tour(adapter, search_query, session.step)
        finally:
            adapter.shutdown()  # stops the reconnect pinger a failed request starts
        plain = connect(server, username, password, Path(data_dir), salt_auth=False)
        session.step("pingWithPassword", lambda: ping(plain))
        wrong = connect(server, username, password + "x", Path(data_dir), salt_auth=True)
        session.step("pingWithWrongPassword", lambda: ping(wrong))
        plain.shutdown()
        wrong.shutdown()
    json.dump(session.results, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
