/** "Download your data": GET /export with the sign-in token, saved through an object URL (a plain link would not carry the token). */
import { useState } from 'react';
import { currentToken } from '../../api/session.ts';
import { XrpcFailure } from '../../api/xrpc.ts';
import { ErrorNote } from '../../components/ui.tsx';
import { SettingsSection } from './shared.tsx';

/** The file name the server gives in Content-Disposition, else a plain one. */
export function downloadName(disposition: string | null): string {
  const match = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match ? decodeURIComponent(match[1]!) : 'earshot-export.zip';
}

async function download(): Promise<void> {
  const token = currentToken();
  const response = await fetch('/export', { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new XrpcFailure(response.status, 'InternalServerError', body.message ?? `The server answered ${response.status} ${response.statusText}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadName(response.headers.get('content-disposition'));
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the URL can go once it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function ExportSection() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await download();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <SettingsSection id="export" title="Your data">
      <p className="muted">
        One zip with your profile, likes, playlists and every play (as ListenBrainz JSON Lines, one file per month), which Earshot and ListenBrainz can import.
      </p>
      {error !== null && <ErrorNote error={error} />}
      <button type="button" onClick={() => void start()} disabled={busy}>
        {busy ? 'Preparing your download…' : 'Download your data'}
      </button>
    </SettingsSection>
  );
}
