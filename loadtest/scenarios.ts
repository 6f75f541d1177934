import type autocannon from 'autocannon';
import { requestJson } from '../src/cli/api-client.ts';
import type { SeededServer } from './seed.ts';
import { subsonicQuery } from './subsonic.ts';

/** What autocannon is asked to send, on top of the run's duration and connections. */
export type ScenarioLoad = Pick<autocannon.Options, 'url' | 'requests' | 'verifyBody'>;

export interface Scenario {
  name: string;
  /** The load, or why the scenario cannot run on this server. */
  load(server: SeededServer): ScenarioLoad | { skipped: string };
  /** After the load: what is wrong with the server's state, if anything, given the requests sent and the 2xx answers among them. */
  verify?(server: SeededServer, requests: { sent: number; ok: number }): Promise<string | undefined>;
}

const xrpc = (server: SeededServer, nsid: string, params: Record<string, string>) => ({
  url: `${server.apiUrl}/xrpc/${nsid}?${new URLSearchParams(params)}`,
});

/** A Subsonic failure is an HTTP 200 too; a stream answers bytes, never the JSON document. */
const notSubsonicFailure = (body: string | Buffer | undefined) => !String(body ?? '').startsWith('{"subsonic-response"');

export const SCENARIOS: Scenario[] = [
  {
    name: 'getFeed',
    load: (server) => xrpc(server, 'app.svc.feed.getFeed', { feed: `earshot:feed:user:${server.did}`, limit: '50' }),
  },
  {
    name: 'getSongs title==*a*',
    load: (server) => xrpc(server, 'app.svc.song.getSongs', { filter: 'title==*a*', limit: '50' }),
  },
  {
    // The same Wrapped each time, as people opening a shared one would ask. The server admits 4 at a time per client
    // address (429 beyond) and reuses an answer while nothing was written (db/heavy-read.ts), as nothing is here.
    name: 'getWrapped',
    load: (server) => xrpc(server, 'app.svc.stats.getWrapped', { did: server.did, year: String(server.year), tz: 'UTC' }),
  },
  {
    // Every request is another listen (one second earlier than the one before), of the imported songs in turn: none is a duplicate.
    name: 'ListenBrainz submit',
    load(server) {
      // Counts requests across all connections.
      let n = 0;
      const start = Math.floor(Date.now() / 1000);
      return {
        url: `${server.scrobblerUrl}/1/submit-listens`,
        requests: [
          {
            method: 'POST',
            headers: { authorization: `Token ${server.apiKey}`, 'content-type': 'application/json' },
            setupRequest(request) {
              const song = server.songs[n % server.songs.length]!;
              const listen = { listened_at: start - n++, track_metadata: { artist_name: song.artist, track_name: song.title } };
              return { ...request, body: JSON.stringify({ listen_type: 'single', payload: [listen] }) };
            },
          },
        ],
      };
    },
    // Each accepted listen was stored: none was lost or taken for a duplicate. Those still in flight when the time was up
    // were sent but their answers not counted, so they may be stored too.
    async verify(server, { sent, ok }) {
      const { payload } = await requestJson<{ payload: { count: number } }>(server.scrobblerUrl, 'GET', `/1/user/${server.handle}/listen-count`);
      const submitted = payload.count - server.plays;
      return submitted >= ok && submitted <= sent ? undefined : `${submitted} submitted plays stored, but ${ok} were accepted of ${sent} sent`;
    },
  },
  {
    name: 'Subsonic stream',
    load(server) {
      if (server.streamIds.length === 0) return { skipped: "the server's library has no songs to stream" };
      // The library's songs in turn, across all connections.
      let n = 0;
      return {
        url: server.apiUrl,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({
              ...request,
              path: `/rest/stream.view?${subsonicQuery(server.apiKey, { id: server.streamIds[n++ % server.streamIds.length]! })}`,
            }),
          },
        ],
        verifyBody: notSubsonicFailure,
      };
    },
  },
];
