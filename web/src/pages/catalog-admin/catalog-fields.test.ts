import { describe, expect, test } from 'vitest';
import { draftOf, fieldChanges, formatDurationInput } from './catalog-fields.ts';

const song = { id: 's1', title: 'Teardrop', duration: 330_500, trackNumber: 3, genre: 'Trip hop', tags: [] };
const artist = { id: 'a1', name: 'Massive Attack', genres: ['trip hop', 'electronic'] };

describe('fixing catalog fields', () => {
  test('the form starts from the entry: durations as m:ss, lists with commas, absent values empty', () => {
    expect(draftOf('song', song)).toMatchObject({ title: 'Teardrop', duration: '5:30', trackNumber: '3', genre: 'Trip hop', composer: '' });
    expect(draftOf('artist', artist)).toMatchObject({ name: 'Massive Attack', genres: 'trip hop, electronic', mbid: '' });
    expect(formatDurationInput(59_999)).toBe('0:59');
  });

  test('only changed fields are sent, typed; an emptied field is cleared', () => {
    const changed = fieldChanges('song', song, { ...draftOf('song', song), title: ' Tear Drop ', duration: '4:05', trackNumber: '', bpm: '80', genre: '' });
    expect(changed).toEqual({ changes: { title: 'Tear Drop', duration: 245_000, trackNumber: null, bpm: 80, genre: null } });
    expect(fieldChanges('artist', artist, { ...draftOf('artist', artist), genres: 'Trip hop,  trip hop ,dub' })).toEqual({
      changes: { genres: ['Trip hop', 'trip hop', 'dub'] },
    });
    expect(fieldChanges('artist', artist, { ...draftOf('artist', artist), genres: '' })).toEqual({ changes: { genres: [] } });
    expect(fieldChanges('song', song, { ...draftOf('song', song), duration: '200' })).toEqual({ changes: { duration: 200_000 } });
  });

  test('what to fix, in words', () => {
    const problem = (kind: 'song' | 'artist' | 'album', entry: Record<string, unknown>, change: Record<string, string>) => {
      const checked = fieldChanges(kind, entry, { ...draftOf(kind, entry), ...change });
      return 'problem' in checked ? checked.problem : null;
    };
    expect(problem('song', song, {})).toBe('Nothing changed: edit a field first.');
    expect(problem('song', song, { genre: 'Trip hop' })).toBe('Nothing changed: edit a field first.');
    expect(problem('artist', artist, { name: ' ' })).toBe('Name cannot be empty.');
    expect(problem('album', { title: 'Mezzanine' }, { year: '98a' })).toBe('Year must be a whole number, such as 3.');
    expect(problem('song', song, { duration: '3:75' })).toBe('Duration (m:ss): write minutes and seconds, such as 3:45.');
  });
});
