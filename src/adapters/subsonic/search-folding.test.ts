import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { restJson, subsonicUser } from './client-testing.ts';
import { createTestLibrary, type TestLibrary } from './library-testing.ts';

describeWithApp('Subsonic REST: search3 and search2 fold case and accents as every catalog search does', (app) => {
  let auth: Record<string, string>;
  let library: TestLibrary;
  const song = (title: string, album: string, artist = 'Björn Åkesson') => ({
    path: `${artist}/${album}/${title}.mp3`,
    metadata: { artist, title, album, albumArtist: artist, durationMs: 180_000 },
  });

  before(async () => {
    const user = await subsonicUser(app(), 'folder');
    auth = { u: user.handle, p: user.key };
    library = await createTestLibrary(app().ctx.db, [
      song('Sången', 'Sjön Säger'),
      song('Natt', 'Sjön Säger'),
      song('Unrelated', 'Plain Album', 'Someone Else'),
    ]);
  });
  after(() => library.remove());

  const search3 = async (query: string) => (await restJson(app(), 'search3', { ...auth, query })).searchResult3;
  const names = (found: { artist?: { name: string }[]; album?: { name: string }[]; song?: { title: string }[] }) => ({
    artists: (found.artist ?? []).map((artist) => artist.name),
    albums: (found.album ?? []).map((album) => album.name),
    songs: (found.song ?? []).map((entry) => entry.title),
  });

  test('"bjorn", "AKESSON" and "Björn" find the artist, and the albums and songs credited to them', async () => {
    const everything = { artists: ['Björn Åkesson'], albums: ['Sjön Säger'], songs: ['Natt', 'Sången'] };
    for (const query of ['bjorn', 'AKESSON', 'Björn', 'bJöRn åkesson', 'bjorn*', '"akesson"']) {
      assert.deepEqual(names(await search3(query)), everything, query);
    }
  });

  test('titles and album names fold too; the typed form and Subsonic quirks still work', async () => {
    assert.deepEqual(names(await search3('sangen')), { artists: [], albums: [], songs: ['Sången'] });
    assert.deepEqual(names(await search3('SJON')), { artists: [], albums: ['Sjön Säger'], songs: ['Natt', 'Sången'] }, 'songs match by album');
    assert.deepEqual(names(await search3('ngen')), { artists: [], albums: [], songs: ['Sången'] });
    assert.deepEqual(names(await search3('nobody')), { artists: [], albums: [], songs: [] });
    assert.equal(names(await search3('')).songs.length, 3, 'an empty query is everything');
    const legacy = (await restJson(app(), 'search2', { ...auth, query: 'akesson' })).searchResult2;
    assert.deepEqual(
      legacy.artist.map((artist: { name: string }) => artist.name),
      ['Björn Åkesson'],
    );
    assert.deepEqual(
      legacy.album.map((album: { title: string }) => album.title),
      ['Sjön Säger'],
    );
  });
});
