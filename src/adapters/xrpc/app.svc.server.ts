/**
 * The `app.svc.server` group: where this server is reached from outside. Clients (the web app's
 * settings) need the scrobbler host's public URL to tell people what to paste into their
 * scrobbling apps; only the server knows it (SCROBBLER_PUBLIC_URL behind a proxy).
 */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../http/operation.ts';

const getInfo = defineQuery({
  nsid: 'app.svc.server.getInfo',
  summary:
    "This server's public URLs: the API host (XRPC, the web app, Subsonic at /rest) and the scrobbler host (ListenBrainz /1/, Last.fm /2.0/, Audioscrobbler)",
  auth: 'none',
  output: Type.Object({
    apiUrl: Type.String({ description: 'PUBLIC_URL, without a trailing slash' }),
    scrobblerUrl: Type.String({ description: 'SCROBBLER_PUBLIC_URL, without a trailing slash' }),
  }),
  handler: async ({ ctx }) => ({ apiUrl: ctx.config.publicUrl, scrobblerUrl: ctx.config.scrobblerPublicUrl }),
});

export const serverOperations = [getInfo];
