/**
 * Every XRPC operation the API host serves, one module per nsid group: the operations named
 * `app.svc.<group>.*` are declared in `app.svc.<group>.ts` (nsid-files.test.ts holds to it).
 */
import type { AnyOperation } from '../http/operation.ts';
import { actorOperations } from './app.svc.actor.ts';
import { albumOperations } from './app.svc.album.ts';
import { apikeyOperations } from './app.svc.apikey.ts';
import { artistOperations } from './app.svc.artist.ts';
import { catalogOperations } from './app.svc.catalog.ts';
import { chartsOperations } from './app.svc.charts.ts';
import { feedOperations } from './app.svc.feed.ts';
import { filehostAOperations } from './app.svc.filehostA.ts';
import { filehostBOperations } from './app.svc.filehostB.ts';
import { libraryOperations } from './app.svc.library.ts';
import { musicstreamOperations } from './app.svc.musicstream.ts';
import { playerOperations } from './app.svc.player.ts';
import { providerOperations } from './app.svc.provider.ts';
import { relayOperations } from './app.svc.relay.ts';
import { syncOperations } from './app.svc.sync.ts';
import { scrobbleOperations } from './app.svc.scrobble.ts';
import { serverOperations } from './app.svc.server.ts';
import { sessionOperations } from './app.svc.session.ts';
import { songOperations } from './app.svc.song.ts';
import { statsOperations } from './app.svc.stats.ts';
import { webhookOperations } from './app.svc.webhook.ts';

export const xrpcOperations = [
  ...actorOperations,
  ...albumOperations,
  ...apikeyOperations,
  ...artistOperations,
  ...catalogOperations,
  ...chartsOperations,
  ...feedOperations,
  ...filehostAOperations,
  ...filehostBOperations,
  ...libraryOperations,
  ...musicstreamOperations,
  ...playerOperations,
  ...providerOperations,
  ...relayOperations,
  ...syncOperations,
  ...scrobbleOperations,
  ...serverOperations,
  ...sessionOperations,
  ...songOperations,
  ...statsOperations,
  ...webhookOperations,
] satisfies readonly AnyOperation[];
