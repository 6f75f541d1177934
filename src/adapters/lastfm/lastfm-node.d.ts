// The parts of the `lastfm` npm package (a third-party Last.fm client) the compatibility tests drive.
declare module 'lastfm' {
  import type { EventEmitter } from 'node:events';

  interface Handlers {
    success?: (result: any) => void;
    error?: (error: any) => void;
  }

  export interface LastFmSession extends EventEmitter {
    user: string;
    key: string;
  }

  export class LastFmNode {
    constructor(options: { api_key: string; secret: string; host?: string; port?: number; useragent?: string });
    request(method: string, params?: Record<string, unknown> & { handlers?: Handlers }): EventEmitter;
    session(options: { token?: string; user?: string; key?: string; handlers?: Handlers }): LastFmSession;
    update(method: 'scrobble' | 'nowplaying', session: LastFmSession, options: Record<string, unknown> & { handlers?: Handlers }): EventEmitter;
  }
}
