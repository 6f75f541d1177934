import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileTextChunks } from './chunks.ts';
import { csvRows } from './csv.ts';
import { readImportRecords, type ParsedRecord } from './read.ts';
import { ImportFormatError } from './records.ts';
import type { ImportFormat } from './schemas.ts';

/** The text in chunks of `size` characters, so every record straddles chunk boundaries. */
async function* chunked(text: string, size = 7): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const read = (format: ImportFormat, text: string, size?: number) => collect(readImportRecords(format, chunked(text, size)));
const listens = (records: ParsedRecord[]) => records.flatMap(({ result }) => ('listen' in result ? [result.listen] : []));
const ignored = (records: ParsedRecord[]) => records.flatMap(({ record, result }) => ('ignored' in result ? [`${record}: ${result.ignored}`] : []));

async function rejects(promise: Promise<unknown>, record: number, problem: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ImportFormatError, String(error));
    assert.equal(error.record, record);
    assert.match(error.problem, problem);
    return true;
  });
}

const lbListen = (seconds: number, track: string, extra: object = {}) => ({
  listened_at: seconds,
  track_metadata: {
    artist_name: 'Portishead',
    track_name: track,
    release_name: 'Dummy',
    additional_info: {
      tags: ['trip hop', ' ', 'bristol'],
      duration_ms: 300000,
      tracknumber: 2,
      spotify_id: 'https://open.spotify.com/track/3Ty7OTBNSigGEpeW2PqcsC',
      isrc: 'gbaaa9400001',
      ...extra,
    },
    mbid_mapping: { recording_mbid: 'A1B2C3D4-0000-4000-8000-000000000001', artist_mbids: ['8f6bd1e4-fbe1-4f50-aa9b-94c450ec0f11'] },
  },
});

describe('ListenBrainz export', () => {
  it('reads a JSON array in small chunks, mapping metadata and ids', async () => {
    const text = JSON.stringify([lbListen(1_600_000_000, 'Sour Times, "live"'), lbListen(1_600_000_300, 'Roads [2] {x}')], null, 2);
    const records = await read('listenbrainz', text, 5);
    assert.deepEqual(
      records.map((r) => r.record),
      [1, 2],
    );
    const [first, second] = listens(records);
    assert.equal(first!.title, 'Sour Times, "live"');
    assert.equal(second!.title, 'Roads [2] {x}');
    assert.equal(first!.listenedAt, '2020-09-13T12:26:40.000Z');
    assert.equal(first!.mbid, 'a1b2c3d4-0000-4000-8000-000000000001');
    assert.equal(first!.artistMbid, '8f6bd1e4-fbe1-4f50-aa9b-94c450ec0f11');
    assert.equal(first!.spotifyId, '3Ty7OTBNSigGEpeW2PqcsC');
    assert.equal(first!.isrc, 'GBAAA9400001');
    assert.equal(first!.durationMs, 300000);
    assert.equal(first!.trackNumber, 2);
    assert.equal(first!.album, 'Dummy');
    assert.deepEqual(first!.tags, ['trip hop', 'bristol']);
    assert.deepEqual(first!.submitted, lbListen(1_600_000_000, 'Sour Times, "live"'));
  });

  it('reads JSON Lines with CRLF endings and blank lines; bad records are ignored with a reason', async () => {
    const lines = [
      JSON.stringify(lbListen(1_600_000_000, 'One')),
      '',
      '{not json',
      JSON.stringify({ listened_at: 1_600_000_100, track_metadata: { artist_name: '', track_name: 'x' } }),
      JSON.stringify(lbListen(1_600_000_200, 'Two', { duration_ms: -5, isrc: 'nope' })),
    ];
    const records = await read('listenbrainz', `${lines.join('\r\n')}\r\n`, 3);
    assert.deepEqual(
      listens(records).map((l) => l.title),
      ['One', 'Two'],
    );
    assert.deepEqual(ignored(records), ['2: a record is not valid JSON', '3: no artist']);
    const two = listens(records)[1]!;
    assert.equal(two.durationMs, undefined);
    assert.equal(two.isrc, undefined);
  });

  it("takes Earshot's exact time (additional_info.listened_at_iso) when it falls in listened_at's second", async () => {
    const lines = [
      lbListen(1_600_000_000, 'Exact', { listened_at_iso: '2020-09-13T12:26:40.250Z' }),
      lbListen(1_600_000_000, 'Other second', { listened_at_iso: '2020-09-13T12:26:41.250Z' }),
      lbListen(1_600_000_000, 'Not a time', { listened_at_iso: 'soon' }),
    ];
    const times = listens(await read('listenbrainz', lines.map((line) => JSON.stringify(line)).join('\n'))).map((l) => l.listenedAt);
    assert.deepEqual(times, ['2020-09-13T12:26:40.250Z', '2020-09-13T12:26:40.000Z', '2020-09-13T12:26:40.000Z']);
  });

  it('refuses a file that is not an export, naming the record', async () => {
    await rejects(
      read('listenbrainz', '{"ts":"2020-01-01T00:00:00Z","ms_played":1}\n'),
      1,
      /not a ListenBrainz export .*: a record has neither listened_at nor track_metadata/,
    );
    await rejects(read('listenbrainz', 'hello\n'), 1, /not valid JSON/);
    await rejects(read('listenbrainz', `[${JSON.stringify(lbListen(1, 'a'))},${JSON.stringify(lbListen(2, 'b'))}`), 2, /not closed/);
  });
});

const spotifyStream = (fields: object) => ({
  ts: '2023-05-01T10:05:00Z',
  username: 'someone',
  ip_addr: '192.0.2.1',
  ms_played: 300_000,
  master_metadata_track_name: 'Teardrop',
  master_metadata_album_artist_name: 'Massive Attack',
  master_metadata_album_album_name: 'Mezzanine',
  spotify_track_uri: 'spotify:track:67Hna13dNDkZvBpTXRIaOJ',
  episode_name: null,
  skipped: false,
  ...fields,
});

describe('Spotify Extended Streaming History', () => {
  it('starts the listen ms_played before the logged end, drops personal fields', async () => {
    const records = await read('spotify', JSON.stringify([spotifyStream({}), spotifyStream({ ts: '2023-05-01 11:00:00' })]));
    const [first, second] = listens(records);
    assert.equal(first!.listenedAt, '2023-05-01T10:00:00.000Z');
    assert.equal(second!.listenedAt, '2023-05-01T10:55:00.000Z');
    assert.equal(first!.spotifyId, '67Hna13dNDkZvBpTXRIaOJ');
    assert.equal(first!.playedMs, 300_000, "ms_played is the play's listening time");
    assert.equal(first!.artist, 'Massive Attack');
    assert.equal(first!.album, 'Mezzanine');
    assert.equal(first!.submitted.ip_addr, undefined);
    assert.equal(first!.submitted.username, undefined);
    assert.equal(first!.submitted.skipped, false);
  });

  it('ignores podcasts, videos and plays under 30 seconds', async () => {
    const streams = [
      spotifyStream({ master_metadata_track_name: null, episode_name: 'Episode 12' }),
      spotifyStream({ master_metadata_track_name: null }),
      spotifyStream({ ms_played: 29_999 }),
      spotifyStream({ ms_played: 30_000 }),
    ];
    const records = await read('spotify', JSON.stringify(streams), 11);
    assert.equal(listens(records).length, 1);
    assert.deepEqual(ignored(records), [
      '1: a podcast episode, not a track',
      '2: not a track (podcast, audiobook or video)',
      '3: played for less than 30 seconds',
    ]);
  });

  it('refuses JSON Lines and other formats', async () => {
    await rejects(read('spotify', JSON.stringify(spotifyStream({}))), 1, /not a JSON array/);
    await rejects(read('spotify', JSON.stringify([lbListen(1, 'x')])), 1, /not a Spotify .*no ts and ms_played/);
    await rejects(read('spotify', '  '), 1, /empty/);
    await rejects(read('spotify', '[]'), 1, /holds no records/);
  });
});

describe('Last.fm CSV', () => {
  it('reads the uts header form, with quoted commas, quotes and line breaks', async () => {
    const csv = [
      'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid',
      '1612117800,"31 Jan 2021, 18:30","Crosby, Stills & Nash",,"Album ""Deluxe""",,"Line\r\nBreak",1b2c3d4e-0000-4000-8000-000000000002',
      '1612118000,"31 Jan 2021, 18:33",Björk,,Post,,Army of Me,',
    ].join('\r\n');
    const records = await read('lastfm', csv, 4);
    const [first, second] = listens(records);
    assert.deepEqual(
      records.map((r) => r.record),
      [1, 2],
    );
    assert.equal(first!.artist, 'Crosby, Stills & Nash');
    assert.equal(first!.album, 'Album "Deluxe"');
    assert.equal(first!.title, 'Line\r\nBreak');
    assert.equal(first!.mbid, '1b2c3d4e-0000-4000-8000-000000000002');
    assert.equal(first!.listenedAt, '2021-01-31T18:30:00.000Z');
    assert.equal(second!.artist, 'Björk');
  });

  it('reads the headerless artist,album,track,date form; bad rows are ignored', async () => {
    const csv =
      'Radiohead,OK Computer,Airbag,31 Jan 2021 18:30\nRadiohead,,No Album,01 Feb 2021 09:05\nRadiohead,OK Computer,Bad Date,yesterday\nonly,three,cells\n';
    const records = await read('lastfm', csv, 6);
    assert.deepEqual(
      listens(records).map((l) => [l.title, l.album, l.listenedAt]),
      [
        ['Airbag', 'OK Computer', '2021-01-31T18:30:00.000Z'],
        ['No Album', undefined, '2021-02-01T09:05:00.000Z'],
      ],
    );
    assert.deepEqual(ignored(records), ['3: no valid listen time', '4: expected 4 columns (artist,album,track,date), found 3']);
  });

  it('refuses a file whose first row is not a scrobble', async () => {
    await rejects(read('lastfm', 'a,b\nc,d\n'), 1, /not a Last\.fm export .*: expected 4 columns/);
    // JSON is read as Last.fm's JSON pages, which a ListenBrainz export has none of.
    await rejects(read('lastfm', JSON.stringify([lbListen(1, 'x')], null, 2)), 1, /no recenttracks\.track list in the file/);
    await rejects(collect(csvRows(chunked('a,"unterminated\n'))), 1, /not closed/);
    await rejects(read('lastfm', 'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\r\n'), 1, /holds no records/);
  });
});

describe('file chunks', () => {
  it('drops a UTF-8 BOM and keeps multi-byte characters split across reads', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-import-')), 'scrobbles.csv');
    const row = 'Sigur Rós,Ágætis byrjun,Svefn-g-englar,01 Jan 2020 00:00\n';
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(row.repeat(10_000))]));
    let bytes = 0;
    const records = await collect(
      readImportRecords(
        'lastfm',
        fileTextChunks(file, (n) => (bytes += n)),
      ),
    );
    assert.equal(bytes, fs.statSync(file).size);
    assert.equal(records.length, 10_000);
    assert.ok(records.every(({ result }) => 'listen' in result && result.listen.artist === 'Sigur Rós' && result.listen.album === 'Ágætis byrjun'));
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
