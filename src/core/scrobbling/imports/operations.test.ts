import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { sql } from 'kysely';
import { albumKey, artistKey, titleKey } from '../../catalog/normalize.ts';
import { describeWithApp, scrobbleCount, type TestApp } from '../../../app/testing.ts';
import { connectionLimit } from '../../../toolkit/db/index.ts';
import { PlayClaims } from '../play-claims.ts';
import { runImport, type ImportSink } from './run.ts';
import { planImports } from './plan.ts';
import { MAX_ZIP_ENTRIES } from './entries.ts';
import { fileSource, openZipArchive, openZipFile, sourceFingerprint, ZipError } from './sources.ts';
import { zipArchive } from './zip-testing.ts';
import type { ImportBatch, ImportListen } from './schemas.ts';

const IMPORT = 'app.svc.scrobble.importListens';
const STATUS = 'app.svc.scrobble.getImport';
const fingerprint = (digit: string) => digit.repeat(64);

const listen = (n: number, fields: Partial<ImportListen> = {}): ImportListen => ({
  artist: `Artist ${n % 3}`,
  title: `Song ${n}`,
  listenedAt: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
  submitted: { n },
  ...fields,
});

const batch = (fields: Partial<ImportBatch>): ImportBatch => ({
  fingerprint: fingerprint('a'),
  format: 'listenbrainz',
  from: 0,
  records: 0,
  listens: [],
  complete: false,
  ...fields,
});

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-import-ops-'));
after(() => fs.rmSync(workDir, { recursive: true, force: true }));

function jsonlFile(name: string, count: number): string {
  const file = path.join(workDir, name);
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      listened_at: 1_700_000_000 + i * 240,
      track_metadata: { artist_name: `Band ${i % 7}`, track_name: i % 10 === 9 ? '' : `Tune ${i % 40}` },
    }),
  );
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The API as an import sink, optionally failing after some batches as a crash would. */
function apiSink(app: TestApp, token: string, failAfterBatches = Infinity): ImportSink {
  let sent = 0;
  return {
    status: async (print) => (await app.query(STATUS, { fingerprint: print }, token)).body,
    async send(input) {
      if (sent++ >= failAfterBatches) throw new Error('connection lost');
      const result = await app.procedure(IMPORT, input, token);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      return result.body;
    },
  };
}

describeWithApp('history import', (app) => {
  it('stores a batch and advances the checkpoint; records without a listen count as ignored', async () => {
    const { token, did } = await app().signup('import-batch');
    const stored = await app().procedure(IMPORT, batch({ records: 5, listens: [listen(1), listen(2), listen(2), listen(3, { artist: ' ' })] }), token);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.deepEqual(
      { ...stored.body, status: undefined },
      {
        stored: 2,
        duplicate: 1,
        ignored: 2,
        ignoredListens: [{ index: 3, reason: 'artist is empty' }],
        status: undefined,
      },
    );
    assert.deepEqual(stored.body.status, {
      fingerprint: fingerprint('a'),
      format: 'listenbrainz',
      recordsConsumed: 5,
      stored: 2,
      duplicate: 1,
      ignored: 2,
      complete: false,
    });
    const status = await app().query(STATUS, { fingerprint: fingerprint('a') }, token);
    assert.deepEqual(status.body, stored.body.status);
    assert.equal(await scrobbleCount(app(), did), 2);
    const source = await app()
      .ctx.db.selectFrom('scrobbles')
      .select('source')
      .distinct()
      .innerJoin('users', 'users.id', 'scrobbles.user_id')
      .where('users.did', '=', did)
      .execute();
    assert.deepEqual(source, [{ source: 'import:listenbrainz' }]);
  });

  it('matches known catalog tracks by name, preferring the same album, without creating any', async () => {
    const { token } = await app().signup('import-albums');
    const db = app().ctx.db;
    const artist = await db
      .insertInto('artists')
      .values({ name: 'Nina', name_key: artistKey('Nina') })
      .returning('id')
      .executeTakeFirstOrThrow();
    const trackOn = async (album: string) => {
      const albumRow = await db
        .insertInto('albums')
        .values({ title: album, title_key: albumKey(album), artist: 'Nina', artist_id: artist.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      const values = { title: 'Home', title_key: titleKey('Home'), artist: 'Nina', artist_id: artist.id, album, album_id: albumRow.id };
      return (await db.insertInto('tracks').values(values).returning('id').executeTakeFirstOrThrow()).id;
    };
    const first = await trackOn('First');
    const second = await trackOn('Second');
    const listens = [
      listen(1, { artist: 'NINA', title: 'home', album: 'second' }),
      listen(2, { artist: 'Nina', title: 'Home (feat. X)' }),
      listen(3, { artist: 'Nina', title: 'Home', album: 'First' }),
    ];
    const result = await app().procedure(IMPORT, batch({ fingerprint: fingerprint('e'), records: 3, listens }), token);
    assert.equal(result.body.stored, 3);
    const stored = await db
      .selectFrom('scrobbles')
      .select(['track_id', 'listened_at'])
      .where('track_id', 'in', [first, second])
      .orderBy('listened_at')
      .execute();
    assert.deepEqual(
      stored.map((row) => row.track_id),
      [second, first, first],
    );
    const tracks = await db
      .selectFrom('tracks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('artist_id', '=', artist.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(tracks.n), 2);
  });

  it('refuses a batch that does not start at the checkpoint, storing nothing', async () => {
    const { token, did } = await app().signup('import-mismatch');
    assert.equal((await app().procedure(IMPORT, batch({ records: 1, listens: [listen(1)] }), token)).status, 200);
    for (const from of [0, 5]) {
      const refused = await app().procedure(IMPORT, batch({ from, records: 1, listens: [listen(10 + from)] }), token);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, 'CheckpointMismatch');
      assert.match(refused.body.message, /checkpoint is at record 1/);
    }
    assert.equal(await scrobbleCount(app(), did), 1);
  });

  it('a failing batch rolls back its scrobbles together with the checkpoint', async () => {
    const { token, did } = await app().signup('import-atomic');
    await sql`create function refuse_checkpoint() returns trigger language plpgsql as $$
      begin raise exception 'simulated crash'; end $$`.execute(app().ctx.db);
    await sql`create trigger refuse_checkpoint before update on import_checkpoints for each row execute function refuse_checkpoint()`.execute(app().ctx.db);
    try {
      const failed = await app().procedure(IMPORT, batch({ fingerprint: fingerprint('b'), records: 2, listens: [listen(1), listen(2)] }), token);
      assert.equal(failed.status, 500);
    } finally {
      await sql`drop trigger refuse_checkpoint on import_checkpoints`.execute(app().ctx.db);
      await sql`drop function refuse_checkpoint()`.execute(app().ctx.db);
    }
    assert.equal(await scrobbleCount(app(), did), 0);
    assert.equal((await app().query(STATUS, { fingerprint: fingerprint('b') }, token)).body.recordsConsumed, 0);
    const retried = await app().procedure(IMPORT, batch({ fingerprint: fingerprint('b'), records: 2, listens: [listen(1), listen(2)] }), token);
    assert.equal(retried.body.stored, 2);
  });

  it('a completed file takes no more batches', async () => {
    const { token } = await app().signup('import-complete');
    const done = await app().procedure(
      IMPORT,
      batch({ fingerprint: fingerprint('c'), format: 'spotify', records: 1, listens: [listen(1)], complete: true }),
      token,
    );
    assert.equal(done.body.status.complete, true);
    assert.match(done.body.status.completedAt, /^\d{4}-\d\d-\d\dT/);
    const again = await app().procedure(IMPORT, batch({ fingerprint: fingerprint('c'), format: 'spotify', from: 1, records: 1, listens: [listen(2)] }), token);
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'ImportComplete');
  });

  it('rejects malformed batches (not odd listens in them) with 400 and unauthenticated calls with 401; checkpoints are per user', async () => {
    const { token } = await app().signup('import-invalid');
    const cases: [unknown, RegExp][] = [
      [batch({ fingerprint: 'xyz' }), /fingerprint/],
      [batch({ records: 1, listens: [listen(1), listen(2)] }), /cannot carry 2 listens/],
      [{ ...batch({ records: 1 }), listens: listen(1) }, /listens/],
      [{ ...batch({}), format: 'itunes' }, /format/],
    ];
    for (const [input, message] of cases) {
      const refused = await app().procedure(IMPORT, input, token);
      assert.equal(refused.status, 400, JSON.stringify(input));
      assert.equal(refused.body.error, 'InvalidRequest');
      assert.match(refused.body.message, message);
    }
    const nul = await app().procedure(IMPORT, batch({ fingerprint: fingerprint('d'), records: 1, listens: [listen(1, { title: 'a\u0000b' })] }), token);
    assert.equal(nul.status, 200);
    assert.deepEqual(nul.body.ignoredListens, [{ index: 0, reason: 'title contains a NUL character' }]);
    assert.equal((await app().procedure(IMPORT, batch({}))).status, 401);
    assert.equal((await app().query(STATUS, { fingerprint: fingerprint('d') })).status, 401);
    const other = await app().signup('import-other');
    assert.equal((await app().query(STATUS, { fingerprint: fingerprint('d') }, other.token)).body.recordsConsumed, 0);
  });

  it('one odd listen never fails its batch: the good ones are stored, each odd one is ignored with its reason', async () => {
    const { token, did } = await app().signup('import-poison');
    // Varied CJK, so the name does not compress below PostgreSQL's index row limit as a repeated character would.
    const cjk = Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
    // Deeper than the listen rules allow, within the 64 levels a request body may have (a deeper body is refused whole).
    const DEEP = 'deep record';
    const deep = `${'{"d":'.repeat(50)}{}${'}'.repeat(50)}`;
    const poison: [unknown, RegExp][] = [
      [listen(0, { title: 'x'.repeat(5000) }), /title is longer than/],
      [listen(0, { artist: 'a\ud800b' }), /artist contains a lone UTF-16 surrogate/],
      [listen(0, { title: 'a\u0000b' }), /title contains a NUL character/],
      [listen(0, { listenedAt: new Date(300_000_000_000_000).toISOString() }), /listenedAt|future/],
      [listen(0, { listenedAt: '0000-01-01T00:00:00.000Z' }), /before 1970/],
      [listen(0, { listenedAt: 'yesterday' }), /listenedAt/],
      [listen(0, { durationMs: -1 }), /duration/],
      [listen(0, { trackNumber: 3_000_000_000 }), /track number/],
      [listen(0, { tags: Array.from({ length: 60 }, (_, i) => `t${i}`) }), /tags/],
      [listen(0, { submitted: { d: DEEP } }), /nested deeper/],
      [listen(0, { submitted: { big: 'x'.repeat(100_000) } }), /larger than/],
      [{ ...listen(0), artist: 5 }, /artist/],
      [{ ...listen(0), submitted: 'text' }, /submitted/],
      [{}, /artist/],
      [null, /object/],
      ['a listen', /object/],
    ];
    // The answer names the first 10 ignored listens, so the poison goes in groups of 8 between good listens.
    let from = 0;
    let stored = 0;
    for (let start = 0; start < poison.length; start += 8) {
      const odd = poison.slice(start, start + 8);
      const listens = [listen(from), listen(from + 1), ...odd.map(([value]) => value), listen(from + 2)];
      const body = JSON.stringify({ ...batch({ fingerprint: fingerprint('f'), from, records: listens.length }), listens }).replace(JSON.stringify(DEEP), deep);
      const result = await app().procedure(IMPORT, body, token);
      assert.equal(result.status, 200, JSON.stringify(result.body).slice(0, 500));
      assert.deepEqual([result.body.stored, result.body.ignored], [3, odd.length]);
      assert.deepEqual(
        result.body.ignoredListens.map(({ index }: { index: number }) => index),
        odd.map((_, i) => 2 + i),
      );
      result.body.ignoredListens.forEach(({ reason }: { reason: string }, i: number) => assert.match(reason, odd[i]![1], `poison ${start + i}`));
      from += listens.length;
      stored += 3;
    }
    assert.equal(await scrobbleCount(app(), did), stored);
    // A name the rules allow is stored, however many bytes it takes: match keys are bounded.
    const long = await app().procedure(
      IMPORT,
      batch({ fingerprint: fingerprint('f'), from, records: 3, listens: [listen(2000), listen(2001, { artist: cjk }), listen(2002)] }),
      token,
    );
    assert.equal(long.status, 200, JSON.stringify(long.body).slice(0, 500));
    assert.deepEqual([long.body.stored, long.body.ignored], [3, 0]);
    assert.equal(await scrobbleCount(app(), did), stored + 3);
  });

  it('an interrupted import resumes from the checkpoint; a re-run of a finished file adds nothing', async () => {
    const { token, did } = await app().signup('import-resume');
    const file = jsonlFile('resume.jsonl', 230);
    await assert.rejects(runImport({ source: fileSource(file), format: 'listenbrainz', sink: apiSink(app(), token, 2), batchSize: 50 }), /connection lost/);
    assert.equal(await scrobbleCount(app(), did), 100);
    const resumed = await runImport({ source: fileSource(file), format: 'listenbrainz', sink: apiSink(app(), token), batchSize: 50 });
    assert.equal(resumed.resumedFrom, 111);
    assert.deepEqual([resumed.records, resumed.stored, resumed.duplicate, resumed.ignored], [230, 107, 0, 12]);
    assert.equal(await scrobbleCount(app(), did), 207);
    const again = await runImport({ source: fileSource(file), format: 'listenbrainz', sink: apiSink(app(), token), batchSize: 50 });
    assert.equal(again.alreadyComplete?.recordsConsumed, 230);
    assert.deepEqual([again.alreadyComplete?.stored, again.alreadyComplete?.ignored], [207, 23]);
    assert.equal(await scrobbleCount(app(), did), 207);
  });

  it('a batch that reaches the server before the one in front of it waits for that one, and both are stored in order', async () => {
    const { token, did } = await app().signup('import-overtaken');
    const second = app().procedure(IMPORT, batch({ fingerprint: fingerprint('7'), from: 2, records: 1, listens: [listen(3)] }), token);
    // Sent later, so the second batch finds no checkpoint at its record yet (it waits up to a second).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const first = await app().procedure(IMPORT, batch({ fingerprint: fingerprint('7'), records: 2, listens: [listen(1), listen(2)] }), token);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const answer = await second;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual([answer.body.stored, answer.body.status.recordsConsumed, answer.body.status.stored], [1, 3, 3]);
    assert.equal(await scrobbleCount(app(), did), 3);
  });

  it('runImport keeps one batch in flight ahead, and sends again one that overtook the batch in front of it', async () => {
    const { token, did } = await app().signup('import-in-flight');
    const file = jsonlFile('in-flight.jsonl', 230);
    const sink = apiSink(app(), token);
    let [inFlight, most, refused] = [0, 0, 0];
    const counting: ImportSink = {
      status: sink.status,
      async send(input) {
        most = Math.max(most, ++inFlight);
        try {
          // The first batch sent behind another is refused as the server refuses one that overtook it.
          if (input.from > 0 && refused++ === 0) throw Object.assign(new Error('CheckpointMismatch'), { status: 409 });
          return await sink.send(input);
        } finally {
          inFlight--;
        }
      },
    };
    const summary = await runImport({ source: fileSource(file), format: 'listenbrainz', sink: counting, batchSize: 50 });
    assert.equal(most, 2);
    assert.deepEqual([summary.records, summary.stored, summary.duplicate, summary.ignored], [230, 207, 0, 23]);
    assert.equal(await scrobbleCount(app(), did), 207);
  });

  it("resumes one entry of a zip after a stop; the archive's other entries keep their own checkpoints", async () => {
    const { token, did } = await app().signup('import-zip-resume');
    const lines = (from: number, count: number) =>
      fs
        .readFileSync(jsonlFile(`zip-${from}.jsonl`, from + count), 'utf8')
        .split('\n')
        .slice(from, from + count)
        .join('\n');
    const archive = path.join(workDir, 'listenbrainz_someone_1700000000.zip');
    fs.writeFileSync(
      archive,
      zipArchive([
        { name: 'user.json', content: '{}' },
        { name: 'listens/2023/11.jsonl', content: lines(0, 120) },
        { name: 'listens/2023/12.jsonl', content: lines(120, 40) },
      ]),
    );
    const zip = await openZipArchive(archive);
    const [november, december] = zip.members;
    let batches = 0;
    const stopped = await runImport({
      source: november!.source,
      format: 'listenbrainz',
      sink: apiSink(app(), token),
      batchSize: 50,
      stopRequested: () => ++batches > 1,
    });
    assert.deepEqual([stopped.interrupted, stopped.records], [true, 55]);
    assert.equal(await scrobbleCount(app(), did), 50);
    const resumed = await runImport({ source: november!.source, format: 'listenbrainz', sink: apiSink(app(), token), batchSize: 50 });
    assert.deepEqual([resumed.resumedFrom, resumed.records, resumed.interrupted], [55, 120, false]);
    const other = await runImport({ source: december!.source, format: 'listenbrainz', sink: apiSink(app(), token), batchSize: 50 });
    assert.deepEqual([other.resumedFrom, other.records], [0, 40]);
    // An entry is known by its content: the same bytes unzipped find its checkpoint.
    const unzipped = path.join(workDir, '12.jsonl');
    fs.writeFileSync(unzipped, lines(120, 40));
    assert.equal(await sourceFingerprint(fileSource(unzipped)), other.fingerprint);
    assert.ok((await runImport({ source: fileSource(unzipped), format: 'listenbrainz', sink: apiSink(app(), token) })).alreadyComplete);
    zip.close();
  });

  it('a damaged zip entry fails before any of it is sent', async () => {
    const { token, did } = await app().signup('import-zip-damaged');
    const content = fs.readFileSync(jsonlFile('damaged.jsonl', 200), 'utf8');
    const archive = zipArchive([{ name: 'listens/2024/1.jsonl', content }]);
    // Flip bytes in the middle of the deflated data: it inflates to other bytes, or not at all.
    for (let i = 400; i < 420; i++) archive[i] = archive[i]! ^ 0xff;
    const file = path.join(workDir, 'damaged.zip');
    fs.writeFileSync(file, archive);
    const zip = await openZipArchive(file);
    const [member] = zip.members;
    await assert.rejects(runImport({ source: member!.source, format: 'listenbrainz', sink: apiSink(app(), token) }), (error) => {
      assert.ok(error instanceof ZipError, String(error));
      assert.match(error.message, /damaged\.zip\/listens\/2024\/1\.jsonl: the entry is damaged/);
      return true;
    });
    assert.equal(await scrobbleCount(app(), did), 0);
    zip.close();
    const truncated = path.join(workDir, 'truncated.zip');
    fs.writeFileSync(truncated, archive.subarray(0, 300));
    await assert.rejects(openZipArchive(truncated), /truncated\.zip: not a readable zip archive/);
  });

  it('a zip whose second entry is damaged is refused whole before anything is sent, naming the entry', async () => {
    const { token, did } = await app().signup('import-zip-second-damaged');
    const content = (name: string) => fs.readFileSync(jsonlFile(name, 200), 'utf8');
    const archive = zipArchive([
      { name: 'listens/2024/1.jsonl', content: content('first.jsonl') },
      { name: 'listens/2024/2.jsonl', content: content('second.jsonl') },
    ]);
    // Flip bytes inside the second entry's deflated data, past its local header and name.
    const second = archive.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 1) + 30 + 'listens/2024/2.jsonl'.length;
    for (let i = second + 100; i < second + 120; i++) archive[i] = archive[i]! ^ 0xff;
    const file = path.join(workDir, 'second-damaged.zip');
    fs.writeFileSync(file, archive);
    await assert.rejects(planImports([file], undefined), (error) => {
      assert.ok(error instanceof ZipError, String(error));
      assert.match(error.message, /second-damaged\.zip\/listens\/2024\/2\.jsonl: the entry is damaged \(.+\); nothing was imported$/);
      return true;
    });
    assert.equal(await scrobbleCount(app(), did), 0);
    assert.equal(
      (await app().query(STATUS, { fingerprint: await sourceFingerprint(fileSource(jsonlFile('first.jsonl', 200))) }, token)).body.recordsConsumed,
      0,
    );
  });

  // The open count, not the entry count, shows the reading is linear: a few years of months keep the
  // test quick, since each month file is an import of its own.
  it('an archive of 60 month files is opened once, its directory read once, and every listen imported', async () => {
    const { token, did } = await app().signup('import-zip-many');
    const months = 60;
    const entries = Array.from({ length: months }, (_, i) => ({
      name: `listens/${2000 + Math.floor(i / 12)}/${(i % 12) + 1}.jsonl`,
      content: `${JSON.stringify({ listened_at: 1_000_000_000 + i * 3600, track_metadata: { artist_name: `Band ${i % 9}`, track_name: `Tune ${i % 40}` } })}\n`,
    }));
    const file = path.join(workDir, 'listenbrainz_many_1700000000.zip');
    fs.writeFileSync(file, zipArchive([{ name: 'user.json', content: '{}' }, ...entries, { name: 'feedback.jsonl', content: '{}\n' }]));
    let opens = 0;
    const plan = await planImports([file], undefined, (archive) => (opens++, openZipFile(archive)));
    try {
      assert.equal(plan.imports.length, months);
      assert.deepEqual([plan.imports[0]!.source.label, plan.imports.at(-1)!.source.label], [`${file}/listens/2000/1.jsonl`, `${file}/listens/2004/12.jsonl`]);
      let stored = 0;
      for (const planned of plan.imports) stored += (await runImport({ ...planned, sink: apiSink(app(), token) })).stored;
      assert.equal(stored, months);
    } finally {
      plan.close();
    }
    assert.equal(opens, 1);
    assert.equal(await scrobbleCount(app(), did), months);
  });

  it('an archive listing more entries than an export holds is refused before its directory is read', async () => {
    const archive = zipArchive([{ name: 'listens/2024/1.jsonl', content: fs.readFileSync(jsonlFile('listed.jsonl', 3)) }]);
    // The end-of-directory record's two entry counts: this disk's and the archive's.
    archive.writeUInt16LE(MAX_ZIP_ENTRIES + 1, archive.length - 22 + 8);
    archive.writeUInt16LE(MAX_ZIP_ENTRIES + 1, archive.length - 22 + 10);
    const file = path.join(workDir, 'too-many.zip');
    fs.writeFileSync(file, archive);
    await assert.rejects(planImports([file], undefined), (error) => {
      assert.ok(error instanceof ZipError, String(error));
      assert.equal(error.message, `${file}: the archive lists ${MAX_ZIP_ENTRIES + 1} entries, more than the ${MAX_ZIP_ENTRIES} an export archive may hold`);
      return true;
    });
  });

  it('a dry run counts what would be stored, duplicate and ignored, and writes nothing', async () => {
    const { token, did } = await app().signup('import-dry-run');
    const listenLine = (seconds: number, artist: string, track: string) =>
      JSON.stringify({ listened_at: seconds, track_metadata: { artist_name: artist, track_name: track } });
    const first = path.join(workDir, 'dry-first.jsonl');
    fs.writeFileSync(first, [listenLine(1_600_000_000, 'Dry Known', 'Known Song'), listenLine(1_600_000_300, 'Dry Known', 'Known Song')].join('\n'));
    await runImport({ source: fileSource(first), format: 'listenbrainz', sink: apiSink(app(), token) });
    const file = path.join(workDir, 'dry.jsonl');
    const records = [
      listenLine(1_600_000_000, 'Dry Known', 'Known Song'), // stored already
      listenLine(1_600_000_600, 'Dry Known', 'Known Song'), // a new play of a known song
      listenLine(1_600_000_900, 'Dry New', 'New Song'), // a new song
      listenLine(1_600_000_900, 'Dry New', 'New Song'), // the same again in the file
      listenLine(1_600_001_200, '', 'No Artist'),
    ];
    fs.writeFileSync(file, records.join('\n'));
    const db = app().ctx.db;
    const counts = async () =>
      Promise.all(
        (['scrobbles', 'tracks', 'artists', 'albums', 'import_checkpoints'] as const).map(async (table) =>
          Number(
            (
              await db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      );
    const before = await counts();
    const tracksBefore = await db.selectFrom('tracks').selectAll().orderBy('id').execute();
    const dry = await runImport({ source: fileSource(file), format: 'listenbrainz', sink: apiSink(app(), token), dryRun: true });
    assert.deepEqual([dry.records, dry.stored, dry.newSongs, dry.duplicate, dry.ignored], [5, 2, 1, 2, 1]);
    assert.deepEqual(dry.ignoredExamples, [{ record: 5, reason: 'no artist' }]);
    assert.deepEqual(await counts(), before);
    assert.deepEqual(await db.selectFrom('tracks').selectAll().orderBy('id').execute(), tracksBefore);
    const real = await runImport({ source: fileSource(file), format: 'listenbrainz', sink: apiSink(app(), token) });
    assert.deepEqual([real.stored, real.duplicate, real.ignored], [2, 2, 1]);
    assert.equal(await scrobbleCount(app(), did), 4);
  });

  it('a dry run counts a play repeated in a later batch, or in another file of the same run, as duplicate, as the import then does', async () => {
    const { token } = await app().signup('import-dry-repeats');
    const line = (seconds: number, track: string) => JSON.stringify({ listened_at: seconds, track_metadata: { artist_name: 'Dry Repeat', track_name: track } });
    const write = (name: string, lines: string[]) => {
      const file = path.join(workDir, name);
      fs.writeFileSync(file, lines.join('\n'));
      return fileSource(file);
    };
    await runImport({ source: write('repeat-known.jsonl', [line(1_610_000_000, 'Known')]), format: 'listenbrainz', sink: apiSink(app(), token) });
    const [known, a, b, c, d] = [
      line(1_610_000_100, 'Known'),
      line(1_610_000_200, 'A'),
      line(1_610_000_300, 'B'),
      line(1_610_000_400, 'C'),
      line(1_610_000_500, 'D'),
    ];
    // Two listens a batch: batch 3 repeats batch 1, a known song's play and a new song's.
    const first = write('repeat-first.jsonl', [known, a, b, c, known, a]);
    const second = write('repeat-second.jsonl', [b, d]);
    const claims = new PlayClaims();
    const dry = async (source: ReturnType<typeof fileSource>) => {
      const summary = await runImport({ source, format: 'listenbrainz', sink: apiSink(app(), token), batchSize: 2, dryRun: true, claims });
      return [summary.stored, summary.duplicate, summary.newSongs];
    };
    assert.deepEqual(await dry(first), [4, 2, 3]);
    assert.deepEqual(await dry(second), [1, 1, 1]);
    const real = async (source: ReturnType<typeof fileSource>) => {
      const summary = await runImport({ source, format: 'listenbrainz', sink: apiSink(app(), token), batchSize: 2 });
      return [summary.stored, summary.duplicate];
    };
    assert.deepEqual(await real(first), [4, 2]);
    assert.deepEqual(await real(second), [1, 1]);
  });
});

describeWithApp(
  'history import beside a catalog edit',
  (app) => {
    it("a track merged away between a batch's match and its store: the batch is matched again, and nothing is lost", async (t) => {
      // The edit must commit while the batch waits for its checkpoint: two connections.
      if (connectionLimit(app().ctx.db) < 2) return t.skip('needs a database server (two connections)');
      const { token, did } = await app().signup('import-merged-away');
      const db = app().ctx.db;
      const artist = await db
        .insertInto('artists')
        .values({ name: 'Gone', name_key: artistKey('Gone') })
        .returning('id')
        .executeTakeFirstOrThrow();
      const doomed = await db
        .insertInto('tracks')
        .values({ title: 'Doomed', title_key: titleKey('Doomed'), artist: 'Gone', artist_id: artist.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      const print = fingerprint('8');
      assert.equal((await app().procedure(IMPORT, batch({ fingerprint: print, records: 1, listens: [listen(1)] }), token)).status, 200);
      let locked!: () => void;
      let release!: () => void;
      const [isLocked, released] = [new Promise<void>((resolve) => (locked = resolve)), new Promise<void>((resolve) => (release = resolve))];
      const edit = db.transaction().execute(async (tx) => {
        await tx.selectFrom('import_checkpoints').select('user_id').where('fingerprint', '=', print).forUpdate().execute();
        locked();
        await released;
        await tx.deleteFrom('tracks').where('id', '=', doomed.id).execute();
      });
      await isLocked;
      const importing = app().procedure(
        IMPORT,
        batch({ fingerprint: print, from: 1, records: 1, listens: [listen(2, { artist: 'Gone', title: 'Doomed' })] }),
        token,
      );
      // Matched (to the doomed track) and waiting for the checkpoint's lock.
      while (Number((await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock'`.execute(db)).rows[0]!.n) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      release();
      await edit;
      const answer = await importing;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.stored, 1);
      const stored = await db
        .selectFrom('scrobbles')
        .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
        .innerJoin('users', 'users.id', 'scrobbles.user_id')
        .select(['tracks.id', 'tracks.title'])
        .where('users.did', '=', did)
        .where('tracks.artist', '=', 'Gone')
        .execute();
      assert.equal(stored.length, 1);
      assert.equal(stored[0]!.title, 'Doomed');
      assert.notEqual(stored[0]!.id, doomed.id);
    });
  },
  {},
  { storage: 'one' },
);
