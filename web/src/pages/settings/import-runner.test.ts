// @vitest-environment node
// Node's Blob and crypto.subtle stand in for the browser's; the runner uses nothing else of either.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, importFile, type ImportApi } from './import-runner.ts';
import { PlayClaims } from '../../../../src/core/scrobbling/play-claims.ts';
import { Sha256 } from './sha256.ts';

const lb = (i: number) => ({ listened_at: 1_700_000_000 + i * 300, track_metadata: { artist_name: 'Air', track_name: `Song ${i}` } });
const blob = (text: string) => new Blob([text]);

describe('fingerprints', () => {
  it('the JavaScript SHA-256 agrees with crypto.subtle and node:crypto at every padding length', async () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31) & 0xff);
      const expected = createHash('sha256').update(bytes).digest('hex');
      // Fed in uneven pieces, as a stream delivers them.
      const hash = new Sha256();
      for (let at = 0; at < length; at += 7) hash.update(bytes.subarray(at, at + 7));
      expect(hash.hex()).toBe(expected);
      expect(await fingerprintOf(new Blob([bytes]))).toBe(expected);
    }
  });
});

describe('importFile', () => {
  /** A server that keeps a checkpoint, as importListens does, and ignores listens of "Bad". */
  function fakeServer(recordsConsumed = 0) {
    const sent: { from: number; records: number; listens: number; complete: boolean }[] = [];
    const api: ImportApi = {
      status: async (fingerprint) => ({ fingerprint, recordsConsumed, stored: 0, duplicate: 0, ignored: 0, complete: false }),
      send: async (batch) => {
        expect(batch.from).toBe(recordsConsumed);
        recordsConsumed += batch.records;
        sent.push({ from: batch.from, records: batch.records, listens: batch.listens.length, complete: batch.complete });
        const status = { fingerprint: batch.fingerprint, recordsConsumed, stored: 0, duplicate: 0, ignored: 0, complete: batch.complete };
        return { stored: batch.listens.length, duplicate: 0, ignored: batch.records - batch.listens.length, ignoredListens: [], status };
      },
    };
    return { api, sent };
  }

  const file = () =>
    blob([...Array.from({ length: 1200 }, (_, i) => lb(i)), { listened_at: 1_700_000_000 }].map((listen) => JSON.stringify(listen)).join('\n'));

  it('sends batches from the checkpoint on, counts what the file lacks as ignored with its reason, and ends with a complete batch', async () => {
    const { api, sent } = fakeServer(700);
    const reports: number[] = [];
    const done = await importFile(file(), { format: 'listenbrainz', api, onProgress: (progress) => reports.push(progress.records) });
    expect(done).toMatchObject({
      phase: 'done',
      format: 'listenbrainz',
      resumedFrom: 700,
      records: 1201,
      stored: 500,
      ignored: 1,
      reasons: { 'no artist': 1 },
    });
    expect(sent).toEqual([
      { from: 700, records: 500, listens: 500, complete: false },
      { from: 1200, records: 1, listens: 0, complete: true },
    ]);
    expect(reports.at(-1)).toBe(1201);
  });

  it('stops between batches when asked, and a new run resumes there', async () => {
    const { api, sent } = fakeServer();
    let batches = 0;
    const stopped = await importFile(file(), { format: 'listenbrainz', api, onProgress: () => {}, stopRequested: () => sent.length > batches });
    expect(stopped).toMatchObject({ phase: 'stopped', records: 500 });
    batches = Infinity;
    const resumed = await importFile(file(), { format: 'listenbrainz', api, onProgress: () => {}, stopRequested: () => false });
    expect(resumed).toMatchObject({ phase: 'done', resumedFrom: 500, records: 1201 });
  });

  it('a dry run counts a play repeated in a later file of the run as a duplicate, as `earshot import` counts it', async () => {
    const api: ImportApi = {
      status: async (fingerprint) => ({ fingerprint, recordsConsumed: 0, stored: 0, duplicate: 0, ignored: 0, complete: false }),
      // Each batch previewed alone, as the server does: every listen would be stored, with its play's key.
      send: async (batch) => ({
        stored: batch.listens.length,
        duplicate: 0,
        ignored: 0,
        newSongs: batch.listens.length,
        claims: batch.listens.map((listen) => ({
          key: `${(listen as { title: string }).title}@${(listen as { listenedAt: string }).listenedAt}`,
          newSong: true,
        })),
        ignoredListens: [],
        status: { fingerprint: batch.fingerprint, recordsConsumed: 0, stored: 0, duplicate: 0, ignored: 0, complete: false },
      }),
    };
    const claims = new PlayClaims();
    const run = (text: string) => importFile(blob(text), { format: 'listenbrainz', api, dryRun: true, claims, onProgress: () => {} });
    expect(await run([lb(1), lb(2)].map((listen) => JSON.stringify(listen)).join('\n'))).toMatchObject({ stored: 2, duplicate: 0, newSongs: 2 });
    expect(await run([lb(2), lb(3)].map((listen) => JSON.stringify(listen)).join('\n'))).toMatchObject({ stored: 1, duplicate: 1, newSongs: 1 });
  });
});
