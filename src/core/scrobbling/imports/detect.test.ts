import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectKind } from './detect.ts';
import { readImportRecords } from './read.ts';
import type { ImportFormat } from './schemas.ts';
import { zipArchive } from './zip-testing.ts';

const lb = { listened_at: 1_650_000_000, track_metadata: { artist_name: 'Air', track_name: 'Sexy Boy' } };
const lastfmTrack = (uts?: string) => ({
  artist: { mbid: '', '#text': 'Air' },
  name: 'Kelly Watch the Stars',
  album: { mbid: '', '#text': 'Moon Safari' },
  image: [{ size: 'small', '#text': 'https://example.invalid/a.png' }],
  ...(uts ? { date: { uts, '#text': '15 Apr 2022, 05:20' } } : { '@attr': { nowplaying: 'true' } }),
});
const lastfmPage = { recenttracks: { track: [lastfmTrack(), lastfmTrack('1650000000')], '@attr': { user: 'someone', page: '1' } } };
const maloja = {
  maloja: { export_time: 1_700_000_000 },
  scrobbles: [{ time: 1_650_000_000, track: { artists: ['Air', 'Beck'], title: 'Song', album: { albumtitle: 'Album' }, length: 200 }, duration: 180 }],
};

const SAMPLES: [string, string | Buffer, ImportFormat | 'zip' | undefined][] = [
  ['ListenBrainz JSON Lines', `${JSON.stringify(lb)}\n${JSON.stringify(lb)}\n`, 'listenbrainz'],
  ['ListenBrainz JSON array', JSON.stringify([lb], null, 2), 'listenbrainz'],
  ['Last.fm CSV with header', 'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\n1650000000,x,Air,,,,Kelly,\n', 'lastfm'],
  ['Last.fm CSV without header', 'Air,Moon Safari,Kelly,15 Apr 2022 05:20\n', 'lastfm'],
  ['Last.fm JSON page', JSON.stringify(lastfmPage, null, 2), 'lastfm'],
  ['Last.fm JSON pages', JSON.stringify([lastfmPage, lastfmPage]), 'lastfm'],
  ['Spotify extended', JSON.stringify([{ ts: '2023-01-01T10:04:00Z', ms_played: 240_000, master_metadata_track_name: 'A' }]), 'spotify'],
  ['Spotify account data', `\ufeff${JSON.stringify([{ endTime: '2023-01-01 10:04', artistName: 'Air', trackName: 'A', msPlayed: 240_000 }])}`, 'spotify'],
  ['scrobbler log', '#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/Rockbox\n', 'scrobbler-log'],
  ['Maloja export', JSON.stringify(maloja, null, 3), 'maloja'],
  ['zip archive', zipArchive([{ name: 'a.txt', content: 'a' }]), 'zip'],
  ['ListenBrainz user.json', JSON.stringify({ user_id: 1, username: 'someone' }), undefined],
  ['a track named like a key', JSON.stringify([{ title: '"listened_at": 1' }]), undefined],
  ['prose', 'Dear diary, today I listened to music.\n', undefined],
];

async function* chunks(text: string): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += 5) yield text.slice(i, i + 5);
}

async function read(format: ImportFormat, text: string) {
  const records = [];
  for await (const record of readImportRecords(format, chunks(text))) records.push(record);
  return records.map(({ result }) => ('listen' in result ? { ...result.listen, submitted: undefined } : result));
}

describe('import format detection', () => {
  for (const [name, content, kind] of SAMPLES) {
    it(`${name}: ${kind ?? 'not an export'}`, async () => {
      assert.equal(await detectKind(Buffer.from(content)), kind);
    });
  }
});

describe('new import formats', () => {
  it('Last.fm JSON: tracks of every page, now-playing ignored, cover links not kept', async () => {
    const text = JSON.stringify([lastfmPage, lastfmPage]);
    const records = await read('lastfm', text);
    assert.deepEqual(
      records.map((record) => ('ignored' in record ? record.ignored : record.listenedAt)),
      ['playing now, not a scrobble yet', '2022-04-15T05:20:00.000Z', 'playing now, not a scrobble yet', '2022-04-15T05:20:00.000Z'],
    );
    for await (const { result } of readImportRecords('lastfm', chunks(text))) if ('listen' in result) assert.equal('image' in result.listen.submitted, false);
  });

  it('Maloja: artists credited together, album title, length', async () => {
    assert.deepEqual(await read('maloja', JSON.stringify(maloja)), [
      { artist: 'Air & Beck', title: 'Song', album: 'Album', durationMs: 200_000, listenedAt: '2022-04-15T05:20:00.000Z', submitted: undefined },
    ]);
  });

  it('Spotify account data: the listen started msPlayed before endTime and lasted msPlayed; short plays and podcasts ignored', async () => {
    const streams = [
      { endTime: '2023-01-01 10:04', artistName: 'Air', trackName: 'A', msPlayed: 240_000 },
      { endTime: '2023-01-01 10:05', artistName: 'Air', trackName: 'B', msPlayed: 29_999 },
      { endTime: '2023-01-01 11:05', podcastName: 'Talk', episodeName: 'One', msPlayed: 900_000 },
    ];
    assert.deepEqual(await read('spotify', JSON.stringify(streams)), [
      { artist: 'Air', title: 'A', listenedAt: '2023-01-01T10:00:00.000Z', playedMs: 240_000, submitted: undefined },
      { ignored: 'played for less than 30 seconds' },
      { ignored: 'a podcast episode, not a track' },
    ]);
  });

  it("scrobbler log: skipped plays ignored; #TZ/UTC is unix time, #TZ/UNKNOWN the importing computer's wall time", async () => {
    const line = 'Air\tMoon Safari\tSexy Boy\t2\t298\tL\t1650000000\t5a7c6b6c-2d4e-4a7e-9f0e-2b1b8c2f3a11';
    const skipped = 'Air\tMoon Safari\tKelly\t3\t300\tS\t1650000400\t';
    const utc = await read('scrobbler-log', `#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/Rockbox\n${line}\n${skipped}\n`);
    assert.deepEqual(utc, [
      {
        artist: 'Air',
        title: 'Sexy Boy',
        album: 'Moon Safari',
        trackNumber: 2,
        durationMs: 298_000,
        mbid: '5a7c6b6c-2d4e-4a7e-9f0e-2b1b8c2f3a11',
        listenedAt: '2022-04-15T05:20:00.000Z',
        submitted: undefined,
      },
      { ignored: 'skipped on the device (rating S)' },
    ]);
    const [unknown] = await read('scrobbler-log', `#AUDIOSCROBBLER/1.1\n#TZ/UNKNOWN\n${line}\n`);
    const wall = new Date(0);
    wall.setFullYear(2022, 3, 15);
    wall.setHours(5, 20, 0, 0);
    assert.equal((unknown as { listenedAt: string }).listenedAt, wall.toISOString());
    await assert.rejects(read('scrobbler-log', `${line}\n`), /no #AUDIOSCROBBLER header line/);
  });
});
