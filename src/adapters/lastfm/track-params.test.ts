import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexedGroups, InvalidParameter, parseForm } from './params.ts';
import { MAX_SCROBBLES_PER_REQUEST, parseScrobbles, trackMetadata } from './track-params.ts';

const params = (text: string) => parseForm(text);

test('form parameters decode + and %xx, and a repeated name keeps its first value', () => {
  assert.deepEqual(
    [...params('artist=Sigur+R%C3%B3s&track=a&track=b')],
    [
      ['artist', 'Sigur Rós'],
      ['track', 'a'],
    ],
  );
});

test('batch parameters group by index in numeric order', () => {
  const groups = indexedGroups(params('artist[10]=K&artist[2]=B&track[2]=b&track[10]=k&method=x&bad[x]=1'));
  assert.deepEqual(
    groups.map((group) => [group.index, [...group.fields]]),
    [
      [
        2,
        [
          ['artist', 'B'],
          ['track', 'b'],
        ],
      ],
      [
        10,
        [
          ['artist', 'K'],
          ['track', 'k'],
        ],
      ],
    ],
  );
});

test('a scrobble batch maps onto listens, seconds to milliseconds, keeping only track fields as submitted', () => {
  const [first, second] = parseScrobbles(
    params(
      'sk=secret&artist[0]=A&track[0]=T&timestamp[0]=1700000000&album[0]=+&duration[0]=200&trackNumber[0]=3&albumArtist[0]=V&chosenByUser[0]=0' +
        '&mbid[0]=8F3471B5-7E6A-48DA-86A9-C1C07A0F47AE&artist[1]=B&track[1]=U&timestamp[1]=1700000100&mbid[1]=not-an-id',
    ),
  );
  assert.equal(first!.listen.listenedAt.toISOString(), '2023-11-14T22:13:20.000Z');
  assert.equal(first!.listen.durationMs, 200_000);
  assert.equal(first!.listen.trackNumber, 3);
  assert.equal(first!.listen.album, undefined);
  assert.equal(first!.listen.albumArtist, 'V');
  assert.equal(first!.listen.mbid, '8f3471b5-7e6a-48da-86a9-c1c07a0f47ae');
  assert.equal(first!.timestamp, '1700000000');
  assert.deepEqual(Object.keys(first!.listen.submitted!).sort(), [
    'album',
    'albumArtist',
    'artist',
    'chosenByUser',
    'duration',
    'mbid',
    'timestamp',
    'track',
    'trackNumber',
  ]);
  assert.equal(second!.listen.mbid, undefined);
});

test('a single scrobble may come without indices', () => {
  const [only] = parseScrobbles(params('method=track.scrobble&artist=A&track=T&timestamp=1700000000&api_key=k'));
  assert.equal(only!.listen.artist, 'A');
  assert.deepEqual(only!.listen.submitted, { artist: 'A', track: 'T', timestamp: '1700000000' });
});

test('malformed scrobbles fail the whole batch, naming the parameter', () => {
  assert.throws(() => parseScrobbles(params('artist[0]=A&track[0]=T')), new InvalidParameter('timestamp[0] is required'));
  assert.throws(() => parseScrobbles(params('artist[0]=A&track[0]=T&timestamp[0]=soon')), /timestamp\[0\] must be a UNIX timestamp/);
  assert.throws(() => parseScrobbles(params('artist[0]=A&track[0]=T&timestamp[0]=1&duration[0]=3:20')), /duration\[0\] must be a whole number/);
  assert.throws(
    () => parseScrobbles(params('artist[0]=A&track[0]=T&timestamp[0]=1&duration[0]=99999999')),
    /duration\[0\] must be a whole number up to 2073600/,
  );
  assert.throws(() => parseScrobbles(params('track=T&timestamp=1')), /artist is required/);
  const tooMany = Array.from({ length: MAX_SCROBBLES_PER_REQUEST + 1 }, (_, i) => `artist[${i}]=A&track[${i}]=T&timestamp[${i}]=1`).join('&');
  assert.throws(() => parseScrobbles(params(tooMany)), /at most 50 scrobbles/);
});

test('blank artist or track is kept for the caller to report as ignored', () => {
  assert.equal(trackMetadata(params('artist=+&track=T')).artist, ' ');
});
