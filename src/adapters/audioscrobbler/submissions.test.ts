import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseForm } from '../lastfm/params.ts';
import { MAX_SUBMISSIONS, parseNowPlaying, parseSubmissions } from './submissions.ts';

test('now-playing maps a, t, b, l, n, m', () => {
  const track = parseNowPlaying(parseForm('s=x&a=Air&t=Alone+in+Kyoto&b=Lost+in+Translation&l=292&n=7&m='));
  assert.deepEqual(
    { ...track, submitted: undefined },
    { artist: 'Air', title: 'Alone in Kyoto', album: 'Lost in Translation', durationMs: 292_000, trackNumber: 7, mbid: undefined, submitted: undefined },
  );
  assert.equal(track.submitted.s, undefined, 'the session id is not kept');
});

test('submissions map each index, with love and skips', () => {
  const [loved, skipped, plain] = parseSubmissions(
    parseForm(
      'a[0]=A&t[0]=One&i[0]=1700000000&o[0]=P&r[0]=L&l[0]=200&b[0]=&n[0]=&m[0]=' +
        '&a[1]=A&t[1]=Two&i[1]=1700000300&o[1]=L1b48a&r[1]=S' +
        '&a[2]=A&t[2]=Three&i[2]=1700000600&o[2]=R&r[2]=',
    ),
  );
  assert.equal(loved!.listen.listenedAt.toISOString(), '2023-11-14T22:13:20.000Z');
  assert.equal(loved!.listen.durationMs, 200_000);
  assert.deepEqual([loved!.loved, loved!.skipped], [true, false]);
  assert.deepEqual([skipped!.loved, skipped!.skipped], [false, true]);
  assert.deepEqual([plain!.loved, plain!.skipped, plain!.listen.title], [false, false, 'Three']);
});

test('a malformed submission fails the request, naming the field', () => {
  const base = 'a[0]=A&t[0]=T&i[0]=1700000000&o[0]=P';
  assert.throws(() => parseSubmissions(parseForm(base.replace('&o[0]=P', ''))), /o\[0\] is required/);
  assert.throws(() => parseSubmissions(parseForm(base.replace('o[0]=P', 'o[0]=X'))), /o\[0\] must be one of/);
  assert.throws(() => parseSubmissions(parseForm(`${base}&r[0]=Z`)), /r\[0\] must be L, B, S or empty/);
  assert.throws(() => parseSubmissions(parseForm(base.replace('a[0]=A', 'a[0]=+'))), /a\[0\] must not be empty/);
  assert.throws(() => parseSubmissions(parseForm(base.replace('i[0]=1700000000', 'i[0]=yesterday'))), /i\[0\] must be a UNIX timestamp/);
  assert.throws(() => parseSubmissions(parseForm(`${base}&l[0]=99999999`)), /l\[0\] must be a whole number up to/);
  const tooMany = Array.from({ length: MAX_SUBMISSIONS + 1 }, (_, i) => `a[${i}]=A&t[${i}]=T&i[${i}]=1&o[${i}]=P`).join('&');
  assert.throws(() => parseSubmissions(parseForm(tooMany)), /at most 50 submissions/);
});
