"""Drives a Last.fm 2.0 server with pylast, as a Python scrobbler would; run by pylast.test.ts.

Argument: a JSON object {host, apiKey, sharedSecret, username, timestamp}. Prints one JSON object:
what the server answered to each call, as pylast parsed it.
"""

import json
import sys
from http.client import HTTPConnection

import pylast

# The test server speaks plain HTTP; pylast 4 opens HTTPS connections only (its SSL context is the
# one argument HTTPConnection lacks). A real server is reached over HTTPS and needs none of this.
pylast.HTTPSConnection = lambda host, context=None, **kwargs: HTTPConnection(host, **kwargs)

config = json.loads(sys.argv[1])


def network(password_hash):
    """Last.fm's network pointed at our host. With a username and password_hash, pylast signs in
    at once through auth.getMobileSession with authToken = md5(username + password_hash)."""
    return pylast._Network(
        name="Earshot",
        homepage="http://" + config["host"],
        ws_server=(config["host"], "/2.0/"),
        api_key=config["apiKey"],
        api_secret=config["sharedSecret"],
        session_key="",
        username=config["username"],
        password_hash=password_hash,
        domain_names={pylast.DOMAIN_ENGLISH: config["host"]},
        urls={"artist": "artists/%(artist)s", "track": "songs/%(title)s", "user": "u/%(name)s"},
    )


def refusal(password_hash):
    try:
        network(password_hash)
    except pylast.WSError as error:
        return {"status": error.get_id(), "details": error.details}
    return None


# The password is an Earshot API key: pylast.md5(key) is what pylast sends its md5 of.
earshot = network(pylast.md5(config["apiKey"]))
t = config["timestamp"]
earshot.update_now_playing(artist="Broadcast", title="Pendulum", album="Haha Sound", duration=240)
user = earshot.get_user(config["username"])
playing = user.get_now_playing()
earshot.scrobble(artist="Broadcast", title="Pendulum", timestamp=t, album="Haha Sound", duration=240)
earshot.scrobble_many(
    [
        {"artist": "Broadcast", "title": "Pendulum", "timestamp": t + 300, "album": "Haha Sound"},
        {"artist": "Broadcast", "title": "Black Cat", "timestamp": t + 600, "album": "Haha Sound"},
    ]
)
earshot.get_track("Broadcast", "Pendulum").love()

broadcast = earshot.get_artist("broadcast")
result = {
    "sessionKey": earshot.session_key,
    "nowPlaying": [str(playing.artist), playing.title],
    "recent": [[str(p.track.artist), p.track.title, p.album, p.timestamp] for p in user.get_recent_tracks(limit=10)],
    "loved": [[str(p.track.artist), p.track.title] for p in user.get_loved_tracks()],
    "topArtists": [[str(top.item), top.weight] for top in user.get_top_artists()],
    "artistTopTracks": [[top.item.title, top.weight] for top in broadcast.get_top_tracks()],
    "artistTopAlbums": [[top.item.title, str(top.item.artist), top.weight] for top in broadcast.get_top_albums()],
    "trackScrobbles": [p.timestamp for p in user.get_track_scrobbles("Broadcast", "Pendulum")],
    "libraryArtists": [[str(item.item), item.playcount, item.tagcount] for item in pylast.Library(user, earshot).get_artists()],
    "trackCorrection": earshot.get_track("BROADCAST", "black cat").get_correction(),
    "artistCorrection": broadcast.get_correction(),
    "trackPlaycount": earshot.get_track("Broadcast", "Pendulum").get_playcount(),
    "wrongPassword": refusal(pylast.md5("not the key")),
}
print(json.dumps(result))
