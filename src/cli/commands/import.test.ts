import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openAppContext } from '../../app/server.ts';
import { loadConfig } from '../../toolkit/config.ts';
import { cliStorages, runCli, seedEmbeddedDatabase, startServe, stopServe } from '../testing.ts';
import { seededPicker as random } from '../../toolkit/fuzz-testing.ts';
import { zipArchive } from '../../core/scrobbling/imports/zip-testing.ts';

const lbLine = (i: number, artist = 'Air') =>
  JSON.stringify({ listened_at: 1_650_000_000 + i * 300, track_metadata: { artist_name: artist, track_name: `Track ${i % 12}`, release_name: 'Moon Safari' } });

/** Varied CJK, as a repeated character would compress below PostgreSQL's index row limit and hide an unbounded key. */
const CJK_NAME = Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
const TWO_MB = 'x'.repeat(2 * 1024 * 1024);
const DEEP = (inner: string) => `${'{"d":'.repeat(5000)}${inner}${'}'.repeat(5000)}`;

/** One odd record as the text of a line or element, and the reason the import must give for it. */
type Poison = { kind: string; text: string; reason: RegExp };

/** A ListenBrainz listen as JSON text; `info` is spliced in as text so it can be nested past what JSON.stringify handles. */
const lbText = (seconds: unknown, artist: unknown, track: unknown, info = '{}') =>
  JSON.stringify({ listened_at: seconds, track_metadata: { artist_name: artist, track_name: track, release_name: 'Poison', additional_info: 'INFO' } }).replace(
    '"INFO"',
    info,
  );

const LB_POISON: Poison[] = [
  { kind: 'listened_at 300000000000', text: lbText(300_000_000_000, 'a', 'b'), reason: /listen time is more than a day in the future/ },
  { kind: 'lone surrogate', text: lbText(1_600_000_000, 'a\ud800b', 'b'), reason: /artist contains a lone UTF-16 surrogate/ },
  { kind: '5,000-character title', text: lbText(1_600_000_000, 'a', 't'.repeat(5000)), reason: /title is longer than 1024 characters/ },
  { kind: '2 MB record', text: lbText(1_600_000_000, 'a', 'b', JSON.stringify({ pad: TWO_MB })), reason: /record is larger than \d+ bytes/ },
  { kind: '5,000-deep additional_info', text: lbText(1_600_000_000, 'a', 'b', DEEP('{}')), reason: /record is nested deeper than \d+ levels/ },
  { kind: 'year 0000', text: lbText('0000-01-01T00:00:00Z', 'a', 'b'), reason: /listen time is before 1970/ },
  { kind: 'NUL in a name', text: lbText(1_600_000_000, 'a\u0000b', 'b'), reason: /artist contains a NUL character/ },
  { kind: 'wrong types', text: lbText(1_600_000_000, 5, ['b']), reason: /no artist/ },
  { kind: 'NaN-ish time', text: lbText('NaN', 'a', 'b'), reason: /no valid listen time/ },
  // biome-ignore lint/correctness/noPrecisionLoss: the point is a time no number can hold
  { kind: 'time 1e999', text: lbText(1e999, 'a', 'b').replace('"listened_at":null', '"listened_at":1e999'), reason: /no valid listen time/ },
  { kind: 'empty object', text: '{}', reason: /neither listened_at nor track_metadata/ },
  // Balanced brackets, so it breaks neither the JSON array nor the line around it.
  { kind: 'not JSON', text: '{"listened_at": 16,}', reason: /not valid JSON/ },
  { kind: 'an array, not an object', text: '[1,2]', reason: /not a JSON object/ },
];

const spotifyText = (ts: unknown, track: unknown, extra: object = {}) =>
  JSON.stringify({ ts, ms_played: 200_000, master_metadata_track_name: track, master_metadata_album_artist_name: 'Poison', ...extra });

const SPOTIFY_POISON: Poison[] = [
  { kind: 'ts in year 11476', text: spotifyText('+011476-01-01T00:00:00Z', 'b'), reason: /listen time is more than a day in the future/ },
  { kind: 'lone surrogate', text: spotifyText('2021-01-01T00:00:00Z', 'a\ud800'), reason: /title contains a lone UTF-16 surrogate/ },
  { kind: '5,000-character title', text: spotifyText('2021-01-01T00:00:00Z', 't'.repeat(5000)), reason: /title is longer than 1024 characters/ },
  { kind: '2 MB record', text: spotifyText('2021-01-01T00:00:00Z', 'b', { pad: TWO_MB }), reason: /record is larger than \d+ bytes/ },
  {
    kind: '5,000-deep field',
    text: spotifyText('2021-01-01T00:00:00Z', 'b', { deep: 'DEEP' }).replace('"DEEP"', DEEP('[]')),
    reason: /record is nested deeper than \d+ levels/,
  },
  { kind: 'year 0000', text: spotifyText('0000-06-01T00:00:00Z', 'b'), reason: /listen time is before 1970/ },
  { kind: 'wrong types', text: spotifyText(12, 'b'), reason: /no valid listen time/ },
  { kind: 'empty object', text: '{}', reason: /no ts and ms_played/ },
];

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
const csvRow = (cells: string[]) => cells.map(csvCell).join(',');
/** A row of the header layout uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid. */
const lastfmRow = (uts: string, utc: string, artist: string, track: string) => csvRow([uts, utc, artist, '', 'Poison', '', track, '']);
/** A row of the headerless layout artist,album,track,date. */
const bareRow = (artist: string, track: string, date: string) => csvRow([artist, 'Poison', track, date]);

const LASTFM_POISON: Poison[] = [
  { kind: 'uts 300000000000', text: lastfmRow('300000000000', '', 'a', 'b'), reason: /listen time is more than a day in the future/ },
  { kind: '5,000-character title', text: lastfmRow('1600000000', '', 'a', 't'.repeat(5000)), reason: /title is longer than 1024 characters/ },
  { kind: '2 MB record', text: lastfmRow('1600000000', '', TWO_MB, 'b'), reason: /record is larger than \d+ bytes/ },
  { kind: 'year 0000', text: lastfmRow('', '01 Jan 0000, 00:00', 'a', 'b'), reason: /listen time is before 1970/ },
  { kind: 'NUL in a name', text: lastfmRow('1600000000', '', 'a\u0000b', 'b'), reason: /artist contains a NUL character/ },
  { kind: 'NaN-ish time', text: lastfmRow('NaN', 'NaN', 'a', 'b'), reason: /no valid listen time/ },
  { kind: 'too few columns', text: 'a,b', reason: /expected 8 columns/ },
  { kind: 'empty row', text: ',,,,,,,', reason: /no artist/ },
];

const BARE_POISON: Poison[] = [
  { kind: 'year 11476', text: bareRow('a', 'b', '01 Jan 11476 00:00'), reason: /no valid listen time|more than a day in the future/ },
  { kind: '2 MB record', text: bareRow('a', TWO_MB, '01 Jan 2021 00:00'), reason: /record is larger than \d+ bytes/ },
  { kind: 'year 0000', text: bareRow('a', 'b', '01 Jan 0000 00:00'), reason: /listen time is before 1970/ },
  { kind: 'wrong month', text: bareRow('a', 'b', '01 Foo 2021 00:00'), reason: /no valid listen time/ },
];

/** The summary names 5 ignored records, so each file carries at most 5 poison records, each after 300 good ones. */
const POISON_PER_FILE = 5;
const GOOD_RUN = 300;

interface PoisonFormat {
  name: string;
  format: 'listenbrainz' | 'lastfm' | 'spotify';
  poison: Poison[];
  /** A good record's text; `n` is unique across the suite, so no good listen is a duplicate of another. */
  good(n: number): string;
  /** The file from its records' texts, laid out as the seed chooses (BOM, line endings, header). */
  file(records: string[], rng: ReturnType<typeof random>): string;
}

const goodSeconds = (n: number) => 1_500_000_000 + n * 60;
/** Now and then a good title is 1,000 CJK characters: long in bytes, within the rules, so stored. */
const goodTitle = (n: number) => (n % 150 === 7 ? CJK_NAME : `Song ${n % 40}`);
const eol = (rng: ReturnType<typeof random>) => rng.pick(['\n', '\r\n']);
const bom = (rng: ReturnType<typeof random>) => rng.pick(['', '\ufeff']);

const POISON_FORMATS: PoisonFormat[] = [
  {
    name: 'ListenBrainz JSONL',
    format: 'listenbrainz',
    poison: LB_POISON,
    good: (n) => lbText(goodSeconds(n), `Good ${n % 5}`, goodTitle(n)),
    file: (records, rng) => {
      const end = eol(rng);
      return bom(rng) + records.join(end) + end;
    },
  },
  {
    name: 'ListenBrainz JSON array',
    format: 'listenbrainz',
    poison: LB_POISON,
    good: (n) => lbText(goodSeconds(n), `Good ${n % 5}`, goodTitle(n)),
    file: (records, rng) => `${bom(rng)}[${records.join(`,${eol(rng)}`)}]`,
  },
  {
    name: 'Last.fm CSV with header',
    format: 'lastfm',
    poison: LASTFM_POISON,
    good: (n) => lastfmRow(String(goodSeconds(n)), '', `Good ${n % 5}`, `${goodTitle(n)}, "live"`),
    file: (records, rng) => {
      const end = eol(rng);
      return bom(rng) + ['uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid', ...records].join(end) + end;
    },
  },
  {
    name: 'Last.fm CSV without header',
    format: 'lastfm',
    poison: BARE_POISON,
    good: (n) => {
      const date = new Date(goodSeconds(n) * 1000);
      const month = date.toLocaleString('en', { month: 'short', timeZone: 'UTC' });
      return bareRow(
        `Good ${n % 5}`,
        goodTitle(n),
        `${date.getUTCDate()} ${month} ${date.getUTCFullYear()} ${date.getUTCHours()}:${String(date.getUTCMinutes()).padStart(2, '0')}`,
      );
    },
    file: (records, rng) => {
      const end = eol(rng);
      return bom(rng) + records.join(end) + end;
    },
  },
  {
    name: 'Spotify extended history',
    format: 'spotify',
    poison: SPOTIFY_POISON,
    good: (n) => spotifyText(new Date((goodSeconds(n) + 200) * 1000).toISOString(), goodTitle(n)),
    file: (records, rng) => `${bom(rng)}[${records.join(`,${eol(rng)}`)}]`,
  },
];

for (const storage of cliStorages('import')) {
  describe(`earshot import end to end [${storage.name}]`, () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-cli-import-'));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      EARSHOT_DATA_DIR: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      PORT: '0',
      ...storage.env,
    };
    if (!storage.env.DATABASE_URL) delete env.DATABASE_URL;
    let server: ChildProcess;
    const earshot = (args: string[], input = '') => runCli(env, args, input);
    const file = (name: string, content: string | Buffer) => {
      const target = path.join(home, name);
      fs.writeFileSync(target, content);
      return target;
    };

    before(async () => {
      // The imports are the point here, not the embedded database's first start.
      if (!storage.env.DATABASE_URL) await seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!);
      const started = await startServe(env);
      server = started.server;
      const { output } = started;
      env.EARSHOT_URL = /API: +(http:\/\/\S+)/.exec(output)![1]!;
      assert.equal((await earshot(['user', 'create', 'importer'], 'import password 1\n')).status, 0);
      assert.equal((await earshot(['login', 'importer'], 'import password 1\n')).status, 0);
    });

    after(async () => {
      await stopServe(server);
      await storage.drop();
      fs.rmSync(home, { recursive: true, force: true });
    });

    it('imports a ListenBrainz JSONL file with progress, then says a re-run has nothing to do', async () => {
      const lines = Array.from({ length: 1200 }, (_, i) => (i === 7 ? lbLine(i, '') : lbLine(i)));
      const export_ = file('listens.jsonl', `${lines.join('\n')}\n`);
      const first = await earshot(['import', 'listenbrainz', export_]);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /Imported .*listens\.jsonl: 1200 records; this run stored 1199, 0 duplicate, 1 ignored\./);
      assert.match(first.stdout, /record 8: no artist/);
      assert.match(first.stderr, /\[#+\] 100% .*stored 1199 +duplicate 0 +ignored 1 +\d+ listens\/s/);
      const again = await earshot(['import', 'listenbrainz', export_]);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /already imported completely \(\d{4}-.*\): 1200 records, 1199 stored, 0 duplicate, 1 ignored\. Nothing to do\./);
    });

    it('imports Last.fm CSV and Spotify history; overlapping listens count as duplicates', async () => {
      const csv = file(
        'scrobbles.csv',
        'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\r\n1650000000,"15 Apr 2022, 05:20",Air,,Moon Safari,,Track 0,\r\n1650000300,x,Air,,,,"Track, new",\r\n',
      );
      const lastfm = await earshot(['import', 'lastfm', csv]);
      assert.equal(lastfm.status, 0, lastfm.stderr);
      assert.match(lastfm.stdout, /2 records; this run stored 1, 1 duplicate, 0 ignored/);
      const streams = [
        {
          ts: '2023-01-01T10:04:00Z',
          ms_played: 240_000,
          master_metadata_track_name: "La femme d'argent",
          master_metadata_album_artist_name: 'Air',
          master_metadata_album_album_name: 'Moon Safari',
          spotify_track_uri: 'spotify:track:2ZyuwVvV6Z3XJaXIFbspeE',
        },
        { ts: '2023-01-01T10:05:00Z', ms_played: 5_000, master_metadata_track_name: 'Sexy Boy', master_metadata_album_artist_name: 'Air' },
        { ts: '2023-01-01T11:00:00Z', ms_played: 900_000, master_metadata_track_name: null, episode_name: 'A podcast' },
      ];
      const spotify = await earshot(['import', 'spotify', file('Streaming_History_Audio_2023.json', JSON.stringify(streams))]);
      assert.equal(spotify.status, 0, spotify.stderr);
      assert.match(spotify.stdout, /3 records; this run stored 1, 0 duplicate, 2 ignored/);
      assert.match(spotify.stdout, /record 2: played for less than 30 seconds\n {2}record 3: a podcast episode, not a track/);
    });

    /** The poison files, made up front in one seeded sequence, so IMPORT_POISON_SEED reproduces every file. */
    const poisonFiles = (() => {
      const rng = random(Number(process.env.IMPORT_POISON_SEED ?? 8));
      let n = 0;
      return POISON_FORMATS.map((format) => {
        const poison = rng.shuffle(format.poison);
        const files = [];
        for (let start = 0; start < poison.length; start += POISON_PER_FILE) {
          const odd = poison.slice(start, start + POISON_PER_FILE);
          const records: string[] = odd.flatMap((p) => [...Array.from({ length: GOOD_RUN }, () => format.good(n++)), p.text]);
          records.push(...Array.from({ length: GOOD_RUN }, () => format.good(n++)));
          const name = `poison-${format.format}-${n}.${format.format === 'lastfm' ? 'csv' : 'json'}`;
          // Each CLI run costs seconds of start-up, so the re-run is checked on one file per format.
          files.push({ odd, records: records.length, name, content: format.file(records, rng), rerun: start === 0 });
        }
        return { format, files };
      });
    })();

    // What the CLI reads, batches and reports is the same whatever stores the listens, so the poison files, the
    // body limit and the usage errors run on the embedded database only; the app tier's poison suite stores the
    // same odd records on both backends.
    const onEmbeddedOnly = storage.name === 'pglite' ? it : () => {};
    for (const { format, files } of poisonFiles) {
      onEmbeddedOnly(`300 good records, one odd record, 300 good: every odd record is ignored with its reason, in ${format.name}`, async () => {
        // The files hold distinct listens, so they are imported side by side.
        await Promise.all(
          files.map(async ({ odd, records, name, content, rerun }) => {
            const target = file(name, content);
            const label = `${format.name}: ${odd.map((p) => p.kind).join(', ')}`;
            const first = await earshot(['import', format.format, target]);
            assert.equal(first.status, 0, `${label}\n${first.stderr}`);
            const good = GOOD_RUN * (odd.length + 1);
            assert.match(first.stdout, new RegExp(`${records} records; this run stored ${good}, 0 duplicate, ${odd.length} ignored\\.`), label);
            odd.forEach((p, i) => {
              const line = new RegExp(`^ {2}record ${(i + 1) * (GOOD_RUN + 1)}: (.*)$`, 'm').exec(first.stdout);
              assert.match(line?.[1] ?? first.stdout, p.reason, `${format.name}: ${p.kind}`);
            });
            if (!rerun) return;
            const again = await earshot(['import', format.format, target]);
            assert.match(again.stdout, new RegExp(`${records} records, ${good} stored, 0 duplicate, ${odd.length} ignored\\. Nothing to do\\.`), label);
          }),
        );
      });
    }

    onEmbeddedOnly('keeps every request under the API body limit, however large the records (batches by bytes, not characters)', async () => {
      // 60 KB of UTF-8 each (20,000 three-byte characters): within the listen rules, so all must be stored.
      const note = Array.from({ length: 20_000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 31) % 20000))).join('');
      const lines = Array.from({ length: 40 }, (_, i) => lbText(goodSeconds(200_000 + i), 'Large', `Song ${i}`, JSON.stringify({ note })));
      const result = await earshot(['import', 'listenbrainz', file('large-records.jsonl', lines.join('\n'))]);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /40 records; this run stored 40, 0 duplicate, 0 ignored\./);
    });

    onEmbeddedOnly('names the file, record and problem for a file of the wrong format; usage errors exit 2', async () => {
      const jsonl = file('wrong.jsonl', `${lbLine(1)}\n`);
      const [wrong, missing, unknownFormat, noFile] = await Promise.all([
        earshot(['import', 'spotify', jsonl]),
        earshot(['import', 'lastfm', path.join(home, 'nope.csv')]),
        earshot(['import', 'itunes', jsonl]),
        earshot(['import', 'lastfm']),
      ]);
      assert.equal(wrong.status, 1);
      assert.equal(wrong.stderr.trim(), `earshot: ${jsonl}: record 1: not a JSON array (the file should start with "[")`);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /cannot read .*nope\.csv: no such file/);
      assert.equal(unknownFormat.status, 2);
      assert.equal(noFile.status, 2);
    });

    /** ListenBrainz lines of distinct listens: `from` keeps each test's listens apart from every other's. */
    const lbLines = (from: number, count: number, artist: string) =>
      `${Array.from({ length: count }, (_, i) => lbText(goodSeconds(300_000 + from + i), artist, `Song ${i % 40}`)).join('\n')}\n`;

    it('imports a folder of every format, detected; other files are skipped; a summary per file and in total', async () => {
      const folder = path.join(home, 'exports');
      fs.mkdirSync(path.join(folder, 'spotify'), { recursive: true });
      const seconds = (i: number) => goodSeconds(310_000 + i);
      const minute = (i: number) => new Date(seconds(i) * 1000 + 240_000).toISOString().slice(0, 16).replace('T', ' ');
      const files: Record<string, string> = {
        '1-listens.jsonl': lbLines(10_000, 3, 'Folder LB'),
        '2-lastfm.csv': `uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\n${seconds(10)},x,Folder CSV,,,,Song,\n`,
        '3-recenttracks.json': JSON.stringify({
          recenttracks: { track: [{ artist: { '#text': 'Folder JSON' }, name: 'Song', album: { '#text': '' }, date: { uts: String(seconds(20)) } }] },
        }),
        '4-maloja_export.json': JSON.stringify({
          maloja: { export_time: 1 },
          scrobbles: [{ time: seconds(30), track: { artists: ['Folder Maloja'], title: 'Song', album: null, length: 200 }, duration: 200 }],
        }),
        '5.scrobbler.log': `#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/Rockbox\nFolder Log\tAlbum\tSong\t1\t200\tL\t${seconds(40)}\t\nFolder Log\tAlbum\tSkip\t2\t200\tS\t${seconds(41)}\t\n`,
        'spotify/StreamingHistory_music_0.json': JSON.stringify([{ endTime: minute(50), artistName: 'Folder Spotify', trackName: 'Song', msPlayed: 240_000 }]),
        'spotify/Streaming_History_Audio_2023.json': JSON.stringify([
          {
            ts: new Date(seconds(60) * 1000 + 200_000).toISOString(),
            ms_played: 200_000,
            master_metadata_track_name: 'Song',
            master_metadata_album_artist_name: 'Folder Extended',
          },
        ]),
        'user.json': JSON.stringify({ user_id: 1, username: 'someone' }),
        'cover.png': 'not even opened',
      };
      for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), content);
      const result = await earshot(['import', folder]);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /Skipped .*user\.json: cannot tell its format/);
      assert.doesNotMatch(result.stdout, /cover\.png/);
      for (const [name, stored, ignored] of [
        ['1-listens.jsonl', 3, 0],
        ['2-lastfm.csv', 1, 0],
        ['3-recenttracks.json', 1, 0],
        ['4-maloja_export.json', 1, 0],
        ['5.scrobbler.log', 1, 1],
        ['StreamingHistory_music_0.json', 1, 0],
        ['Streaming_History_Audio_2023.json', 1, 0],
      ] as const) {
        assert.match(
          result.stdout,
          new RegExp(`Imported .*${name.replaceAll('.', '\\.')}: \\d+ records; this run stored ${stored}, 0 duplicate, ${ignored} ignored\\.`),
          name,
        );
      }
      assert.match(result.stdout, /Total: 7 files; this run stored 9, 0 duplicate, 1 ignored\./);
      assert.match(result.stderr, /file 7\/7 +committed 10: stored 9/);
      const again = await earshot(['import', folder]);
      assert.equal(again.stdout.match(/Nothing to do\./g)?.length, 7);
      const named = await earshot(['import', 'lastfm', folder, '--dry-run']);
      assert.match(named.stdout, /Skipped .*1-listens\.jsonl: a listenbrainz file, not lastfm/);
      const undetectable = await earshot(['import', path.join(folder, 'user.json')]);
      assert.equal(undetectable.status, 1);
      assert.match(undetectable.stderr, /user\.json: cannot tell its format; looked for zip archive .*Name the format: earshot import <format> FILE/);
    });

    it('imports the ListenBrainz and Spotify zip archives as handed out, entry by entry; other entries are left alone', async () => {
      const listenbrainz = file(
        'listenbrainz_importer_1700000000.zip',
        zipArchive([
          { name: 'user.json', content: '{"user_name":"importer"}' },
          { name: 'feedback.jsonl', content: '{"recording_mbid":"x","score":1}\n' },
          { name: 'listens/2024/10.jsonl', content: lbLines(20_000, 4, 'Zip LB') },
          { name: 'listens/2024/2.jsonl', content: lbLines(20_100, 2, 'Zip LB') },
        ]),
      );
      const lb = await earshot(['import', listenbrainz]);
      assert.equal(lb.status, 0, lb.stderr);
      assert.match(
        lb.stdout,
        /Imported .*\.zip\/listens\/2024\/2\.jsonl: 2 records; this run stored 2[\s\S]*Imported .*\.zip\/listens\/2024\/10\.jsonl: 4 records; this run stored 4/,
      );
      assert.match(lb.stdout, /Total: 2 files; this run stored 6, 0 duplicate, 0 ignored\./);
      const stream = (i: number) => ({
        endTime: new Date(goodSeconds(320_000 + i) * 1000).toISOString().slice(0, 16).replace('T', ' '),
        artistName: 'Zip Spotify',
        trackName: `Song ${i}`,
        msPlayed: 180_000,
      });
      const account = file(
        'my_spotify_data.zip',
        zipArchive([
          { name: 'Spotify Account Data/Userdata.json', content: '{}' },
          { name: 'Spotify Account Data/StreamingHistory_podcast_0.json', content: '[]' },
          { name: 'Spotify Account Data/StreamingHistory_music_0.json', content: JSON.stringify([stream(1), stream(2), { ...stream(3), msPlayed: 1000 }]) },
        ]),
      );
      const extended = file(
        'my_spotify_data (extended).zip',
        zipArchive([
          { name: 'Spotify Extended Streaming History/ReadMeFirst_ExtendedStreamingHistory.pdf', content: '%PDF' },
          {
            name: 'Spotify Extended Streaming History/Streaming_History_Audio_2023.json',
            content: JSON.stringify([
              {
                ts: new Date(goodSeconds(320_100) * 1000).toISOString(),
                ms_played: 100_000,
                master_metadata_track_name: 'Song',
                master_metadata_album_artist_name: 'Zip Extended',
              },
            ]),
          },
          { name: 'Spotify Extended Streaming History/Streaming_History_Video_2023.json', content: '[]' },
        ]),
      );
      const spotify = await earshot(['import', 'spotify', account, extended]);
      assert.equal(spotify.status, 0, spotify.stderr);
      assert.match(
        spotify.stdout,
        /StreamingHistory_music_0\.json: 3 records; this run stored 2, 0 duplicate, 1 ignored\.\nIgnored, for example:\n {2}record 3: played for less than 30 seconds/,
      );
      assert.match(spotify.stdout, /Streaming_History_Audio_2023\.json: 1 records; this run stored 1/);
      assert.match((await earshot(['import', listenbrainz, account])).stdout, /Total: 3 files; this run stored 0, 0 duplicate, 0 ignored\./);
    });

    it('refuses a damaged zip with a clear error naming the entry, storing nothing of any entry', async () => {
      const content = lbLines(30_000, 300, 'Zip Damaged');
      const archive = zipArchive([{ name: 'listens/2024/1.jsonl', content }]);
      const truncated = await earshot(['import', file('truncated.zip', archive.subarray(0, 200))]);
      assert.equal(truncated.status, 1);
      assert.match(truncated.stderr, /^earshot: .*truncated\.zip: not a readable zip archive \(.+\)\n$/);
      // A good first entry and a damaged second: the whole archive is checked before the first listen is sent.
      const first = lbLines(31_000, 300, 'Zip Before Damage');
      const damaged = zipArchive([
        { name: 'listens/2024/1.jsonl', content: first },
        { name: 'listens/2024/2.jsonl', content },
      ]);
      const second = damaged.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 1) + 30 + 'listens/2024/2.jsonl'.length;
      for (let i = second + 100; i < second + 140; i++) damaged[i] = damaged[i]! ^ 0xff;
      const result = await earshot(['import', file('damaged.zip', damaged)]);
      assert.equal(result.status, 1);
      assert.match(result.stderr, /^earshot: .*damaged\.zip\/listens\/2024\/2\.jsonl: the entry is damaged \(.+\); nothing was imported\n$/);
      // Nothing of either entry was stored: the same listens, unzipped, are all new.
      const good = await earshot(['import', file('undamaged-1.jsonl', first), file('undamaged-2.jsonl', content)]);
      assert.match(good.stdout, /Total: 2 files; this run stored 600, 0 duplicate, 0 ignored\./);
    });

    it('--dry-run reports what would be stored, duplicate and ignored, and writes nothing', async () => {
      const target = file('dry-run.jsonl', `${lbLines(40_000, 3, 'Dry CLI') + lbText(goodSeconds(340_000), '', 'No artist')}\n`);
      const dry = await earshot(['import', target, '--dry-run']);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(
        dry.stdout,
        /Dry run of .*dry-run\.jsonl: 4 records; would store 3 \(3 of them with songs new to the catalog\), 0 duplicate, 1 ignored\. Nothing was written\.\nIgnored, for example:\n {2}record 4: no artist/,
      );
      // A second file repeating the first: its plays are duplicates of the first file's, within one dry run.
      const repeat = file('dry-run-again.jsonl', lbLines(40_000, 3, 'Dry CLI'));
      const both = await earshot(['import', target, repeat, '--dry-run']);
      assert.equal(both.status, 0, both.stderr);
      assert.match(
        both.stdout,
        /Dry run of .*dry-run-again\.jsonl: 3 records; would store 0 \(0 of them with songs new to the catalog\), 3 duplicate, 0 ignored\./,
      );
      assert.match(both.stdout, /Total: 2 files; would store 3, 3 duplicate, 1 ignored\./);
      const real = await earshot(['import', target]);
      assert.match(real.stdout, /4 records; this run stored 3, 0 duplicate, 1 ignored/);
      assert.match((await earshot(['import', target, '--dry-run'])).stdout, /already imported completely/);
    });

    it('Ctrl-C stops after the current batch commits and says how to resume; the same command finishes', async () => {
      const archive = file(
        'listenbrainz_interrupted.zip',
        zipArchive(
          [0, 1, 2].map((month) => ({ name: `listens/2022/${month + 1}.jsonl`, content: lbLines(50_000 + month * 2500, 2500, `Interrupted ${month}`) })),
        ),
      );
      const child = spawn(process.execPath, [path.resolve('bin/earshot.js'), 'import', archive], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('committed') && !child.killed) child.kill('SIGINT');
      });
      const status = await new Promise((resolve) => child.on('exit', resolve));
      assert.equal(status, 130, stderr);
      assert.match(stderr, /Stopping after the current batch commits/);
      assert.match(
        stderr,
        new RegExp(
          `interrupted after record \\d+ of .*; everything before is committed\\. To resume, run the same command again:\\n {2}earshot import ${archive.replaceAll('.', '\\.')}\\n`,
        ),
      );
      const resumed = await earshot(['import', archive]);
      assert.equal(resumed.status, 0, resumed.stderr);
      assert.match(resumed.stdout, /Resumed after record \d+/);
      const stored = [stdout, resumed.stdout].join('\n').matchAll(/^Imported .*this run stored (\d+)/gm);
      assert.equal(
        [...stored].reduce((total, match) => total + Number(match[1]), 0),
        7500,
      );
    });

    // Last: it stops the server, which owns the embedded database while it runs.
    it('--direct imports into the database while no server runs, sharing the checkpoints', async () => {
      await stopServe(server);
      const export_ = file('direct.jsonl', `${Array.from({ length: 30 }, (_, i) => lbLine(10_000 + i, 'Massive Attack')).join('\n')}\n`);
      const direct = await earshot(['import', 'listenbrainz', export_, '--direct', '--user', 'importer']);
      assert.equal(direct.status, 0, direct.stderr);
      assert.match(direct.stdout, /30 records; this run stored 30, 0 duplicate, 0 ignored/);
      // No fold job ran beside it: the import added its plays to the all-time totals itself.
      const ctx = await openAppContext(loadConfig(env));
      try {
        const { rows } = await sql<{ untotalled: number }>`select coalesce(sum(queued - totalled), 0)::int as untotalled from stats_queue_users`.execute(
          ctx.db,
        );
        assert.equal(rows[0]!.untotalled, 0);
      } finally {
        await ctx.close();
      }
      const again = await earshot(['import', 'listenbrainz', export_, '--direct']);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /Nothing to do\./);
      const importedThroughServer = await earshot(['import', 'listenbrainz', path.join(home, 'listens.jsonl'), '--direct']);
      assert.match(importedThroughServer.stdout, /1200 records, 1199 stored, 0 duplicate, 1 ignored\. Nothing to do\./);
      // The same checks guard a direct import: text PostgreSQL would refuse, and nesting the reader stops unparsed.
      const poison = (kind: string) => LB_POISON.find((p) => p.kind === kind)!;
      const surrogate = poison('lone surrogate');
      const deep = poison('5,000-deep additional_info');
      const good = (from: number) => Array.from({ length: GOOD_RUN }, (_, i) => lbText(goodSeconds(100_000 + from + i), 'Direct', `Song ${i % 40}`));
      const poisoned = file('direct-poison.jsonl', [...good(0), surrogate.text, ...good(GOOD_RUN), deep.text, ...good(2 * GOOD_RUN)].join('\n'));
      const odd = await earshot(['import', 'listenbrainz', poisoned, '--direct']);
      assert.equal(odd.status, 0, odd.stderr);
      assert.match(odd.stdout, /902 records; this run stored 900, 0 duplicate, 2 ignored\./);
      assert.match(odd.stdout, new RegExp(`record 301: ${surrogate.reason.source}`));
      assert.match(odd.stdout, new RegExp(`record 602: ${deep.reason.source}`));
    });
  });
}
