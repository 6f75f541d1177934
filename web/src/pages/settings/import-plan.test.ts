// @vitest-environment node
// Node's Blob, DecompressionStream and crypto.subtle stand in for the browser's; the plan uses nothing else of either.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as yazl from 'yazl';
import { zipArchive } from '../../../../src/core/scrobbling/imports/zip-testing.ts';
import { folderSelection, ImportPlanError, planImports, type ChosenFile } from './import-plan.ts';

const lb = (i: number) => JSON.stringify({ listened_at: 1_700_000_000 + i * 300, track_metadata: { artist_name: 'Air', track_name: `Song ${i}` } });
const spotify = { ts: '2024-03-04T12:34:56Z', ms_played: 200_000, master_metadata_track_name: 'Roads', master_metadata_album_artist_name: 'Portishead' };
const loose = (path: string, content: string | Uint8Array): ChosenFile => ({ path, file: new Blob([content as BlobPart]), inFolder: false });
const inFolder = (path: string, content: string | Uint8Array = lb(1)): ChosenFile => ({ path, file: new Blob([content as BlobPart]), inFolder: true });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('folderSelection', () => {
  it('takes the export files a command-line walk of the folder takes, in path order as people read it', () => {
    const files = ['x/listens/2024/10.jsonl', 'x/cover.jpg', 'x/listens/2024/2.jsonl', 'x/notes.TXT', 'x/song.flac', 'x/a.zip'].map((path) => inFolder(path));
    expect(folderSelection(files).map((chosen) => chosen.path)).toEqual(['x/a.zip', 'x/listens/2024/2.jsonl', 'x/listens/2024/10.jsonl', 'x/notes.TXT']);
  });
});

describe('planImports', () => {
  it("tells each file's format as `earshot import` does", async () => {
    const samples: [string, string][] = [
      ['listenbrainz', `${lb(1)}\n${lb(2)}`],
      ['listenbrainz', `[${lb(1)}]`],
      ['spotify', JSON.stringify([spotify])],
      ['spotify', `\ufeff${JSON.stringify([{ endTime: '2024-03-04 12:34', artistName: 'Air', trackName: 'Venus', msPlayed: 90_000 }])}`],
      ['maloja', JSON.stringify({ scrobbles: [{ time: 1_700_000_000, track: { artists: ['Air'], title: 'Venus' } }] })],
      ['lastfm', 'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\n1700000000,"14 Nov 2023, 22:13",Air,,Moon Safari,,Venus,\n'],
      ['scrobbler-log', '#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/Rockbox\nAir\tMoon Safari\tVenus\t1\t240\tL\t1700000000\t\n'],
    ];
    const plan = await planImports(samples.map(([, text], i) => loose(`file${i}`, text)));
    expect(plan.imports.map((planned) => planned.format)).toEqual(samples.map(([format]) => format));
    await expect(planImports([loose('hello.json', '{"hello": "world"}')])).rejects.toThrow(/hello\.json: cannot tell its format/);
  });

  it("takes a ListenBrainz zip's listens in path order, leaves its other entries, and knows each entry by its content's SHA-256", async () => {
    const months = { 'listens/2023/2.jsonl': lb(1), 'listens/2023/10.jsonl': lb(2), 'listens/2024/1.jsonl': lb(3) };
    const zip = zipArchive([
      { name: 'user.json', content: '{}' },
      { name: 'listens/2024/1.jsonl', content: months['listens/2024/1.jsonl'] },
      { name: 'feedback.jsonl', content: '{}' },
      { name: 'listens/2023/10.jsonl', content: months['listens/2023/10.jsonl'] },
      { name: 'listens/2023/2.jsonl', content: months['listens/2023/2.jsonl'] },
    ]);
    const plan = await planImports([loose('lb.zip', zip)]);
    expect(plan.imports.map(({ label, format, fingerprint }) => ({ label, format, fingerprint }))).toEqual(
      Object.entries(months).map(([name, content]) => ({ label: `lb.zip/${name}`, format: 'listenbrainz', fingerprint: sha256(content) })),
    );
    expect(await (await plan.imports[1]!.content()).text()).toBe(months['listens/2023/10.jsonl']);
  });

  it('reads a zip written as a stream, with its sizes after each entry (as Earshot writes its export)', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('readme'), 'README.txt');
    zip.addReadStream((await import('node:stream')).Readable.from([lb(1), '\n', lb(2)]), 'listens/2024/3.jsonl');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const plan = await planImports([loose('earshot_me.zip', Buffer.concat(chunks))]);
    expect(plan.imports.map((planned) => [planned.label, planned.fingerprint])).toEqual([
      ['earshot_me.zip/listens/2024/3.jsonl', sha256(`${lb(1)}\n${lb(2)}`)],
    ]);
  });

  it('refuses a zip with a damaged entry whole, and skips what a folder holds that is no export', async () => {
    const zip = zipArchive([{ name: 'listens/2024/1.jsonl', content: lb(1) }]);
    zip.writeUInt32LE(zip.readUInt32LE(14) ^ 1, 14); // the local CRC-32 is not read; the directory's is
    const directoryCrc = zip.length - 22 - 46 - 'listens/2024/1.jsonl'.length + 16;
    zip.writeUInt32LE(zip.readUInt32LE(directoryCrc) ^ 1, directoryCrc);
    await expect(planImports([loose('bad.zip', zip)])).rejects.toThrow(ImportPlanError);
    await expect(planImports([loose('bad.zip', zip)])).rejects.toThrow(
      'bad.zip: listens/2024/1.jsonl: the entry is damaged (its CRC-32 does not match); nothing was imported',
    );
    const plan = await planImports([
      inFolder('f/a.jsonl'),
      inFolder('f/notes.txt', 'hello'),
      inFolder('f/other.zip', zipArchive([{ name: 'x.json', content: '{}' }])),
    ]);
    expect(plan.imports.map((planned) => planned.label)).toEqual(['f/a.jsonl']);
    expect(plan.skipped.map((skipped) => skipped.path)).toEqual(['f/notes.txt', 'f/other.zip']);
    expect(plan.skipped[1]!.reason).toMatch(/^no entries with listens in the archive/);
  });

  it('a named format picks the files of that format in a folder', async () => {
    const plan = await planImports([inFolder('f/a.jsonl'), inFolder('f/b.json', JSON.stringify([spotify]))], 'spotify');
    expect(plan.imports.map((planned) => [planned.label, planned.format])).toEqual([['f/b.json', 'spotify']]);
    expect(plan.skipped).toEqual([{ path: 'f/a.jsonl', reason: 'a listenbrainz file, not spotify' }]);
  });
});
