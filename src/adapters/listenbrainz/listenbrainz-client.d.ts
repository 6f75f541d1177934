// The `listenbrainz` npm client (a test dependency) ships no type declarations; this covers what the tests use.
declare module 'listenbrainz' {
  export interface ClientTrack {
    artist_name: string;
    track_name: string;
    release_name?: string;
    artist_mbids?: string[];
    recording_mbid?: string;
    release_mbid?: string;
    tags?: string[];
  }

  export interface ClientListen {
    listened_at?: number;
    recording_msid?: string;
    track_metadata: ClientTrack;
  }

  export class Client {
    constructor(authorization?: string, baseUrl?: string);
    submitListen(data: { listen_type: 'single' | 'playing_now' | 'import'; payload: ClientListen[] }): Promise<{ status: number } | undefined>;
    getUserListens(user: string): Promise<{ data: { count: number; listens: ClientTrack[] } } | undefined>;
    getLatestImport(user: string): Promise<{ data: { musicbrainz_id: string; latest_import: number } } | undefined>;
  }
}
