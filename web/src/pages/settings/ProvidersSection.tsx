/**
 * Connected providers (app.svc.provider.*). Connecting asks for the consent page's URL with POST
 * (a plain link to GET …/connect would not carry the Bearer token) and then sends the browser there.
 * The POST's answer also sets a cookie (a same-origin fetch stores it) without which the callback
 * connects nothing, so the consent must be given in this browser.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { route } from '../../api/routes.ts';
import { procedure, query, type Output } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { SettingsSection } from './shared.tsx';

type Connections = Output<'app.svc.provider.getConnections'>;
type ProviderName = Connections['available'][number];
type Connection = Connections['connections'][number];

const KEY = ['settings', 'providers'];

const PROVIDERS: Record<ProviderName, { title: string; what: string }> = {
  filehostA: { title: 'File host A (Drive)', what: 'Mirrors your /Music folder into your library, to play in any Subsonic player.' },
  filehostB: { title: 'File host B (Dropbox)', what: 'Mirrors your /Music folder into your library, to play in any Subsonic player.' },
  musicstream: { title: 'Streaming service', what: 'What you play there is scrobbled here on its own, and you can control playback.' },
};

function ConnectionState({ connection }: { connection: Connection }) {
  return (
    <div className="small">
      {connection.status === 'broken' ? (
        <p className="error">Broken: {connection.statusReason}</p>
      ) : (
        <p>
          Connected{connection.accountName ? ` as ${connection.accountName}` : ''} since {formatDate(connection.connectedAt)}.
        </p>
      )}
      {connection.folder && (
        <p className="muted">
          Mirrors {connection.folder}
          {connection.lastSyncAt ? `; last synced ${formatDate(connection.lastSyncAt)}` : '; not synced yet'}.
        </p>
      )}
      {connection.lastSyncError && <p className="error">The last sync failed: {connection.lastSyncError}</p>}
      {connection.lastPolledAt && <p className="muted">Plays last read {formatDate(connection.lastPolledAt)}.</p>}
      {connection.lastPollError && <p className="error">Reading plays failed: {connection.lastPollError}</p>}
    </div>
  );
}

export function ProvidersSection() {
  const client = useQueryClient();
  const connections = useQuery({ queryKey: KEY, queryFn: () => query('app.svc.provider.getConnections', {}) });
  const connect = useMutation({
    mutationFn: (provider: ProviderName) => route('POST /providers/:provider/connect', { pathParams: { provider } }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const disconnect = useMutation({
    mutationFn: (provider: ProviderName) => procedure('app.svc.provider.disconnect', { provider }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
  return (
    <SettingsSection id="providers" title="Connected services">
      {connect.isError && <ErrorNote error={connect.error} />}
      {disconnect.isError && <ErrorNote error={disconnect.error} />}
      {connections.isPending ? (
        <Loading />
      ) : connections.isError ? (
        <ErrorNote error={connections.error} />
      ) : connections.data.available.length === 0 ? (
        <Empty>
          <p>This server offers no services to connect yet: its administrator can turn on cloud folders for your music and a streaming service.</p>
          <details className="muted small">
            <summary>For the administrator</summary>
            Each service is turned on with its own settings, named FILEHOSTA_…, FILEHOSTB_… and MUSICSTREAM_… (see the server's configuration docs).
          </details>
        </Empty>
      ) : (
        <ul className="settings-list">
          {connections.data.available.map((provider) => {
            const connection = connections.data.connections.find((found) => found.provider === provider);
            const { title, what } = PROVIDERS[provider];
            return (
              <li key={provider}>
                <div>
                  <strong>{title}</strong>
                  {connection ? <ConnectionState connection={connection} /> : <p className="muted small">{what}</p>}
                </div>
                <div className="actions">
                  {(!connection || connection.status === 'broken') && (
                    <button type="button" disabled={connect.isPending} onClick={() => connect.mutate(provider)}>
                      {connection ? 'Reconnect' : 'Connect'}
                    </button>
                  )}
                  {connection && (
                    <button
                      type="button"
                      className="secondary danger"
                      disabled={disconnect.isPending}
                      onClick={() => confirm(`Disconnect ${title}? Its files leave your library; your songs and plays stay.`) && disconnect.mutate(provider)}
                    >
                      Disconnect
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </SettingsSection>
  );
}
