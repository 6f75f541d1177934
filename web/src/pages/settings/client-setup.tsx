/**
 * Where an API key goes in each kind of client, with this server's real URLs (app.svc.server.getInfo:
 * the scrobbler host may sit behind its own public URL). The URLs follow docs/using/clients.md.
 */
import { useQuery } from '@tanstack/react-query';
import { query, type Output } from '../../api/xrpc.ts';
import { ErrorNote, Loading } from '../../components/ui.tsx';
import { CopyValue } from './shared.tsx';

export type ServerInfo = Output<'app.svc.server.getInfo'>;

export const useServerInfo = () => useQuery({ queryKey: ['server-info'], queryFn: () => query('app.svc.server.getInfo', {}), staleTime: Infinity });

/** The URLs each protocol's clients are given. */
export function clientUrls(info: ServerInfo) {
  return {
    listenBrainz: `${info.scrobblerUrl}/1/`,
    lastfm: `${info.scrobblerUrl}/2.0/`,
    audioscrobbler: `${info.scrobblerUrl}/`,
    subsonic: info.apiUrl,
  };
}

/** A fresh key's values, shown in place; otherwise the instructions name them. */
interface Secrets {
  key: string;
  sharedSecret: string;
}

const KEY_HINT = 'this API key (shown once when it was created)';
const SECRET_HINT = 'its shared secret (shown once when it was created)';

function Client({ name, children, note }: { name: string; children: React.ReactNode; note?: string }) {
  return (
    <div className="client">
      <h4>{name}</h4>
      <dl className="client-values">{children}</dl>
      {note && <p className="muted small">{note}</p>}
    </div>
  );
}

function Value({ label, value, hint }: { label: string; value: string | undefined; hint: string }) {
  return value === undefined ? (
    <div className="copy-value">
      <dt>{label}</dt>
      <dd className="muted">{hint}</dd>
    </div>
  ) : (
    <CopyValue label={label} value={value} />
  );
}

export function ClientSetup({ handle, secrets }: { handle: string; secrets?: Secrets }) {
  const info = useServerInfo();
  if (info.isPending) return <Loading label="Loading this server's addresses…" />;
  if (info.isError) return <ErrorNote error={info.error} />;
  const urls = clientUrls(info.data);
  return (
    <div className="clients">
      <Client
        name="ListenBrainz clients"
        note="Navidrome, Pano Scrobbler, Web Scrobbler, multi-scrobbler: their custom ListenBrainz server setting. Some ask for the address without /1/."
      >
        <CopyValue label="Server URL (API root)" value={urls.listenBrainz} />
        <Value label="User token" value={secrets?.key} hint={KEY_HINT} />
      </Client>
      <Client name="Last.fm clients" note={`Their custom Last.fm / GNU FM / Libre.fm server setting; then sign in with your handle (${handle}) and password.`}>
        <CopyValue label="API root" value={urls.lastfm} />
        <Value label="API key" value={secrets?.key} hint={KEY_HINT} />
        <Value label="Shared secret" value={secrets?.sharedSecret} hint={SECRET_HINT} />
      </Client>
      <Client
        name="Audioscrobbler 1.2 players"
        note="Older players (Rockbox, foobar2000, Amarok 1, cmus scripts): the handshake hands out the other addresses."
      >
        <CopyValue label="Handshake URL" value={urls.audioscrobbler} />
        <CopyValue label="Username" value={handle} />
        <Value label="Password" value={secrets?.key} hint={KEY_HINT} />
      </Client>
      <Client name="Subsonic players" note="Your library plays in any Subsonic or OpenSubsonic player; removing the key signs the player out.">
        <CopyValue label="Server" value={urls.subsonic} />
        <CopyValue label="Username" value={handle} />
        <Value label="Password" value={secrets?.key} hint={KEY_HINT} />
      </Client>
    </div>
  );
}
