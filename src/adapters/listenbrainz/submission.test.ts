import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XrpcError } from '../../toolkit/errors.ts';
import {
  LISTEN_MINIMUM_TS,
  LISTENED_AT_ALLOWED_SKEW,
  MAX_LISTEN_PAYLOAD_SIZE,
  MAX_LISTEN_SIZE,
  MAX_LISTENS_PER_REQUEST,
  parseSubmission,
} from './submission.ts';

const NOW = 1_750_000_000;
const track = { artist_name: 'Rick Astley', track_name: 'Never Gonna Give You Up' };
const listen = (fields: Record<string, unknown> = {}) => ({ listened_at: 1_700_000_000, track_metadata: track, ...fields });
const body = (document: unknown) => JSON.stringify(document);
const submit = (listenType: string, payload: unknown[]) => body({ listen_type: listenType, payload });

function rejects(text: string, message: RegExp): void {
  assert.throws(
    () => parseSubmission(text, NOW),
    (error: unknown) => error instanceof XrpcError && error.status === 400 && message.test(error.message),
    `expected 400 ${message} for ${text.slice(0, 200)}`,
  );
}

describe('parseSubmission: the document', () => {
  test('reads each listen type', () => {
    const single = parseSubmission(submit('single', [listen()]), NOW);
    assert.equal(single.listenType, 'single');
    assert.equal(single.listens[0]!.listenedAt, 1_700_000_000);
    assert.deepEqual(single.listens[0]!.metadata, { artist: 'Rick Astley', title: 'Never Gonna Give You Up' });
    const playing = parseSubmission(submit('playing_now', [{ track_metadata: track }]), NOW);
    assert.equal(playing.listens[0]!.listenedAt, undefined);
    const imported = parseSubmission(submit('import', [listen(), listen({ listened_at: 1_700_000_300 })]), NOW);
    assert.equal(imported.listens.length, 2);
  });

  test('invalid JSON and documents of the wrong shape', () => {
    rejects('{"listen_type": "single", ', /^Cannot parse JSON document/);
    rejects('', /^Cannot parse JSON document/);
    rejects('[]', /^Invalid JSON document submitted\.$/);
    rejects('"single"', /^Invalid JSON document submitted\.$/);
    rejects(body({ listen_type: 'single' }), /^Invalid JSON document submitted\.$/);
    rejects(body({ listen_type: 'single', payload: listen() }), /should be a list of listens/);
    rejects(submit('single', []), /does not contain any listens/);
  });

  test('listen_type must be single, playing_now or import', () => {
    rejects(body({ payload: [listen()] }), /requires a valid listen_type/);
    rejects(submit('scrobble', [listen()]), /requires a valid listen_type/);
  });

  test('single and playing_now carry exactly one listen', () => {
    rejects(submit('single', [listen(), listen()]), /should contain only one/);
    rejects(submit('playing_now', [{ track_metadata: track }, { track_metadata: track }]), /should contain only one/);
  });

  test(`at most ${MAX_LISTENS_PER_REQUEST} listens per request`, () => {
    const many = Array.from({ length: MAX_LISTENS_PER_REQUEST }, (_, i) => listen({ listened_at: 1_700_000_000 + i }));
    assert.equal(parseSubmission(submit('import', many), NOW).listens.length, MAX_LISTENS_PER_REQUEST);
    rejects(submit('import', [...many, listen()]), /Too many listens.*1000/);
  });

  test(`a body of at most ${MAX_LISTEN_PAYLOAD_SIZE} bytes`, () => {
    rejects(submit('single', [listen()]) + ' '.repeat(MAX_LISTEN_PAYLOAD_SIZE), /Payload too large/);
  });
});

describe('parseSubmission: each listen', () => {
  test(`a listen of at most ${MAX_LISTEN_SIZE} bytes`, () => {
    const info = (size: number) => ({ comment: 'x'.repeat(size) });
    const fits = listen({ track_metadata: { ...track, additional_info: info(MAX_LISTEN_SIZE - 200) } });
    assert.equal(parseSubmission(submit('single', [fits]), NOW).listens.length, 1);
    rejects(submit('single', [listen({ track_metadata: { ...track, additional_info: info(MAX_LISTEN_SIZE) } })]), /too large.*10240 bytes/);
  });

  test('a listen must be an object', () => {
    rejects(submit('import', [listen(), null]), /not a JSON object/);
    rejects(submit('import', ['listen']), /not a JSON object/);
  });

  test('single and import need an integer listened_at', () => {
    rejects(submit('single', [{ track_metadata: track }]), /must contain the key listened_at/);
    rejects(submit('import', [{ track_metadata: track }]), /must contain the key listened_at/);
    rejects(submit('single', [listen({ listened_at: 'yesterday' })]), /int value for listened_at/);
    rejects(submit('single', [listen({ listened_at: null })]), /int value for listened_at/);
    rejects(submit('single', [listen({ listened_at: '1.5e9' })]), /int value for listened_at/);
    assert.equal(parseSubmission(submit('single', [listen({ listened_at: '1700000000' })]), NOW).listens[0]!.listenedAt, 1_700_000_000);
    assert.equal(parseSubmission(submit('single', [listen({ listened_at: 1_700_000_000.9 })]), NOW).listens[0]!.listenedAt, 1_700_000_000);
  });

  test(`listened_at from LISTEN_MINIMUM_TS (${LISTEN_MINIMUM_TS}) to an hour ahead of the clock`, () => {
    assert.equal(parseSubmission(submit('single', [listen({ listened_at: LISTEN_MINIMUM_TS })]), NOW).listens.length, 1);
    rejects(submit('single', [listen({ listened_at: LISTEN_MINIMUM_TS - 1 })]), /listened_at is too low/);
    assert.equal(parseSubmission(submit('single', [listen({ listened_at: NOW + LISTENED_AT_ALLOWED_SKEW })]), NOW).listens.length, 1);
    rejects(submit('single', [listen({ listened_at: NOW + LISTENED_AT_ALLOWED_SKEW + 1 })]), /listened_at is too high/);
  });

  test('playing_now must not carry listened_at nor other keys', () => {
    rejects(submit('playing_now', [listen()]), /must not contain listened_at while submitting playing_now/);
    rejects(submit('playing_now', [{ track_metadata: track, extra: 1 }]), /may only contain track_metadata/);
  });

  test('single and import take only listened_at and track_metadata', () => {
    rejects(submit('import', [listen({ user_name: 'someone' })]), /may only contain listened_at and track_metadata/);
  });

  test('track_metadata with artist_name and track_name strings', () => {
    rejects(submit('single', [{ listened_at: 1_700_000_000 }]), /does not contain required track_metadata\./);
    rejects(submit('single', [listen({ track_metadata: 'Rick Astley - Never Gonna Give You Up' })]), /track_metadata must be a JSON object/);
    rejects(submit('single', [listen({ track_metadata: { track_name: 'x' } })]), /required track_metadata\.artist_name/);
    rejects(submit('single', [listen({ track_metadata: { artist_name: 'x' } })]), /required track_metadata\.track_name/);
    rejects(submit('single', [listen({ track_metadata: { artist_name: ['a', 'b'], track_name: 'x' } })]), /artist_name must be a single string/);
    rejects(submit('single', [listen({ track_metadata: { artist_name: 'a', track_name: 7 } })]), /track_name must be a single string/);
    rejects(submit('single', [listen({ track_metadata: { artist_name: '  ', track_name: 'x' } })]), /artist_name is empty/);
    rejects(submit('single', [listen({ track_metadata: { ...track, release_name: 3 } })]), /release_name must be a string/);
  });

  test("Earshot's own field limits reject the listen instead of dropping it later", () => {
    rejects(submit('single', [listen({ track_metadata: { artist_name: 'a'.repeat(1025), track_name: 'x' } })]), /longer than 1024 characters/);
  });

  test('additional_info.duration_played (seconds) is the played time; duration_ms stays the track length; odd values are passed over', () => {
    const info = (additional_info: Record<string, unknown>) => listen({ track_metadata: { ...track, additional_info } });
    const [played, fractional, odd, none] = parseSubmission(
      submit('import', [
        info({ duration_played: 200, duration_ms: 240_000 }),
        info({ duration_played: '12.5' }),
        info({ duration_played: -1 }),
        info({ duration_ms: 240_000 }),
      ]),
      NOW,
    ).listens;
    assert.equal(played!.playedMs, 200_000);
    assert.equal(played!.metadata.durationMs, 240_000);
    assert.equal(fractional!.playedMs, 12_500);
    assert.equal(odd!.playedMs, undefined);
    assert.equal(none!.playedMs, undefined);
  });

  test('a unicode null anywhere is refused', () => {
    rejects(submit('single', [listen({ track_metadata: { ...track, additional_info: { media_player: 'a\u0000b' } } })]), /NUL character/);
    rejects(submit('single', [listen({ track_metadata: { ...track, additional_info: { tags: ['a\u0000'] } } })]), /NUL character/);
    rejects(submit('single', [listen({ track_metadata: { ...track, additional_info: { 'a\u0000b': 1 } } })]), /NUL character/);
  });

  test('one bad listen rejects the whole import', () => {
    rejects(submit('import', [listen(), listen({ listened_at: 5 })]), /too low/);
  });
});
