import { describe, expect, test } from 'vitest';
import { XrpcFailure } from '../api/xrpc.ts';
import { correctionFailure, correctionInput, draftOf, sentence, toLocalInput } from './play-correction.ts';

const play = { id: 'p1', artist: 'Massive Attack', title: 'Teardrop', album: 'Mezzanine', createdAt: '2024-05-01T10:20:30.000Z' };
const NOW = Date.parse('2024-06-01T00:00:00Z');

describe('correcting a play', () => {
  test('the form starts from the play, its time in local time to the second, and round-trips', () => {
    const draft = draftOf(play);
    expect(draft).toMatchObject({ artist: 'Massive Attack', title: 'Teardrop', album: 'Mezzanine' });
    expect(draft.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(new Date(draft.time).toISOString()).toBe(play.createdAt);
    expect(toLocalInput(play.createdAt)).toBe(draft.time);
  });

  test('sends only what changed, trimmed', () => {
    expect(correctionInput(play, { ...draftOf(play), title: '  Tear Drop ' }, NOW)).toEqual({ input: { id: 'p1', title: 'Tear Drop' } });
    const moved = new Date(Date.parse(play.createdAt) - 3_600_000).toISOString();
    expect(correctionInput(play, { ...draftOf(play), artist: 'Elizabeth Fraser', time: toLocalInput(moved) }, NOW)).toEqual({
      input: { id: 'p1', artist: 'Elizabeth Fraser', listenedAt: moved },
    });
  });

  test('says in words what to fix before asking the server', () => {
    const problem = (change: Partial<ReturnType<typeof draftOf>>) => {
      const checked = correctionInput(play, { ...draftOf(play), ...change }, NOW);
      return 'problem' in checked ? checked.problem : null;
    };
    expect(problem({})).toBe('Nothing changed: edit a field first.');
    expect(problem({ artist: '  ' })).toBe('Give the artist.');
    expect(problem({ title: '' })).toBe('Give the title.');
    expect(problem({ album: 'x'.repeat(1025) })).toBe('The album is longer than 1024 characters.');
    expect(problem({ album: '' })).toMatch(/keeps its album/);
    expect(problem({ time: '' })).toBe('Give the date and time of the play.');
    expect(problem({ time: toLocalInput('2024-06-03T00:00:00Z') })).toBe('A play cannot be more than a day in the future.');
    expect(problem({ time: '1969-12-30T12:00:00' })).toBe('A play cannot be before 1970.');
  });

  test("the server's refusals in words", () => {
    expect(correctionFailure(new XrpcFailure(409, 'DuplicateScrobble', 'you already have a play of that song at that time'))).toMatch(
      /^You already have a play/,
    );
    expect(correctionFailure(new XrpcFailure(400, 'InvalidRequest', 'listen time is before 1970'))).toBe('Listen time is before 1970.');
    expect(sentence('Done!')).toBe('Done!');
  });
});
