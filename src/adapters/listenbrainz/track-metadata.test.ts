import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XrpcError } from '../../toolkit/errors.ts';
import { trackMetadataFromCatalog } from '../../core/scrobbling/listen-json.ts';
import { canonicalMbid, MAX_DURATION_LIMIT, readTrackMetadata } from './track-metadata.ts';

const RECORDING = '98255a8c-017a-4bc7-8dd6-1fa36124572b';
const RELEASE = 'bf9e91ea-8029-4a04-a26a-224e00a83266';
const ARTIST = 'db92a151-1ac2-438b-bc43-b82e149ddd50';

const withInfo = (additional_info: unknown) => ({ artist_name: 'Rick Astley', track_name: 'Never Gonna Give You Up', additional_info });

function rejects(metadata: unknown, message: RegExp): void {
  assert.throws(
    () => readTrackMetadata(metadata),
    (error: unknown) => error instanceof XrpcError && error.status === 400 && message.test(error.message),
    `expected 400 ${message}`,
  );
}

describe('readTrackMetadata', () => {
  test('maps a full ListenBrainz track_metadata onto Earshot track metadata', () => {
    const metadata = readTrackMetadata({
      artist_name: ' Rick Astley ',
      track_name: 'Never Gonna Give You Up',
      release_name: 'Whenever You Need Somebody',
      additional_info: {
        recording_mbid: RECORDING,
        release_mbid: RELEASE,
        artist_mbids: [ARTIST],
        isrc: 'gbarl9300135',
        duration_ms: 213000,
        tracknumber: '1/10',
        discnumber: 1,
        spotify_id: 'https://open.spotify.com/track/4PTG3Z6ehGkBFwjybzWkR8',
        tags: ['pop', ' 80s '],
        release_artist_name: 'Rick Astley',
        media_player: 'Rhythmbox',
      },
    });
    assert.deepEqual(metadata, {
      artist: 'Rick Astley',
      title: 'Never Gonna Give You Up',
      album: 'Whenever You Need Somebody',
      albumArtist: 'Rick Astley',
      mbid: RECORDING,
      albumMbid: RELEASE,
      artistMbid: ARTIST,
      isrc: 'GBARL9300135',
      durationMs: 213000,
      trackNumber: 1,
      discNumber: 1,
      spotifyId: '4PTG3Z6ehGkBFwjybzWkR8',
      tags: ['pop', '80s'],
    });
  });

  test('duration in seconds, or duration_ms, never both', () => {
    assert.equal(readTrackMetadata(withInfo({ duration: 213 })).durationMs, 213000);
    assert.equal(readTrackMetadata(withInfo({ duration: '213' })).durationMs, 213000);
    rejects(withInfo({ duration: 213, duration_ms: 213000 }), /both duration and duration_ms/);
    rejects(withInfo({ duration: 0 }), /duration is invalid/);
    rejects(withInfo({ duration: 1.5 }), /duration is invalid/);
    rejects(withInfo({ duration: MAX_DURATION_LIMIT + 1 }), /duration is invalid/);
    rejects(withInfo({ duration_ms: 'long' }), /duration_ms is invalid/);
  });

  test('tags: a list of at most 50 strings of at most 64 characters', () => {
    assert.deepEqual(readTrackMetadata(withInfo({ tags: Array(50).fill('t'.repeat(64)) })).tags?.length, 50);
    rejects(withInfo({ tags: Array(51).fill('rock') }), /more than 50 items/);
    rejects(withInfo({ tags: ['t'.repeat(65)] }), /longer than 64 characters/);
    rejects(withInfo({ tags: 'rock' }), /tags must be a list of strings/);
    rejects(withInfo({ tags: ['rock', 1] }), /tags must be a list of strings/);
  });

  test('MBIDs must be UUIDs; empty ones are dropped', () => {
    rejects(withInfo({ recording_mbid: 'not-a-uuid' }), /recording_mbid MBID format invalid/);
    rejects(withInfo({ release_group_mbid: 42 }), /release_group_mbid MBID format invalid/);
    rejects(withInfo({ artist_mbids: ARTIST }), /artist_mbids MBID format invalid/);
    rejects(withInfo({ work_mbids: ['nope'] }), /work_mbids MBID format invalid/);
    const info: Record<string, unknown> = { recording_mbid: '', artist_mbids: [null, ARTIST.toUpperCase()] };
    const metadata = readTrackMetadata(withInfo(info));
    assert.equal(metadata.mbid, undefined);
    assert.equal(metadata.artistMbid, ARTIST);
    assert.deepEqual(info, { artist_mbids: [ARTIST.toUpperCase()] });
  });

  test('additional_info and its typed fields must have the documented types', () => {
    rejects(withInfo('Rhythmbox'), /additional_info must be a JSON object/);
    rejects(withInfo({ isrc: 12 }), /isrc must be a string/);
    rejects(withInfo({ spotify_id: {} }), /spotify_id must be a string/);
    rejects(withInfo({ release_artist_name: ['a'] }), /release_artist_name must be a string/);
    rejects(withInfo({ tracknumber: [1] }), /tracknumber must be a number or a string/);
  });

  test('identifiers that are not recognisable are kept out of the catalog, not refused', () => {
    const metadata = readTrackMetadata(withInfo({ isrc: 'unknown', spotify_id: 'https://example.com/x', tracknumber: 'A1' }));
    assert.deepEqual([metadata.isrc, metadata.spotifyId, metadata.trackNumber], [undefined, undefined, undefined]);
  });
});

test('canonicalMbid accepts the spellings Python uuid accepts', () => {
  for (const spelling of [RECORDING, RECORDING.toUpperCase(), RECORDING.replace(/-/g, ''), `{${RECORDING}}`, `urn:uuid:${RECORDING}`]) {
    assert.equal(canonicalMbid(spelling), RECORDING, spelling);
  }
  assert.equal(canonicalMbid('98255a8c'), null);
});

test('trackMetadataFromCatalog answers in ListenBrainz field names, omitting what is unknown', () => {
  const empty = {
    album: null,
    albumArtist: null,
    durationMs: null,
    trackNumber: null,
    discNumber: null,
    mbid: null,
    albumMbid: null,
    artistMbid: null,
    isrc: null,
    spotifyUrl: null,
    tags: [],
  };
  assert.deepEqual(trackMetadataFromCatalog({ ...empty, artist: 'A', title: 'T' }), { artist_name: 'A', track_name: 'T', additional_info: {} });
  assert.deepEqual(
    trackMetadataFromCatalog({ ...empty, artist: 'A', title: 'T', album: 'R', mbid: RECORDING, artistMbid: ARTIST, durationMs: 1000, tags: ['x'] }),
    {
      artist_name: 'A',
      track_name: 'T',
      release_name: 'R',
      additional_info: { recording_mbid: RECORDING, artist_mbids: [ARTIST], duration_ms: 1000, tags: ['x'] },
    },
  );
});
