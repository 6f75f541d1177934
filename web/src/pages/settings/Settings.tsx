/** /settings: the signed-in user's account, credentials, connections, imports and data, one section each. */
import { useSession } from '../../api/session.ts';
import { Link } from '../../router.tsx';
import { useIsAdmin } from '../../components/use-admin.ts';
import { AccessTokensSection } from './AccessTokensSection.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { RelaySection } from './RelaySection.tsx';
import { CatalogEditsSection } from './CatalogEditsSection.tsx';
import { DeleteAccountSection } from './DeleteAccountSection.tsx';
import { ExportSection } from './ExportSection.tsx';
import { ImportSection } from './ImportSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import { SyncSection } from './SyncSection.tsx';
import { WebhooksSection } from './WebhooksSection.tsx';

const CONTENTS = [
  ['profile', 'Profile'],
  ['password', 'Password'],
  ['sessions', 'Devices'],
  ['api-keys', 'API keys'],
  ['access-tokens', 'Access tokens'],
  ['providers', 'Services'],
  ['relay', 'Relaying'],
  ['sync', 'Syncing in'],
  ['webhooks', 'Webhooks'],
  ['import', 'Import'],
  ['export', 'Your data'],
  ['delete-account', 'Delete account'],
] as const;

const ADMIN_CONTENTS = [['catalog-edits', 'Catalog edits']] as const;

export function Settings() {
  const session = useSession();
  const admin = useIsAdmin();
  if (!session) {
    return (
      <section>
        <h1>Settings</h1>
        <p>
          <Link href="/signin">Sign in</Link> to change your profile, create API keys for your scrobblers, and import or download your history.
        </p>
      </section>
    );
  }
  return (
    <div className="settings">
      <h1>Settings</h1>
      <nav aria-label="Settings sections" className="settings-contents">
        {[...CONTENTS, ...(admin ? ADMIN_CONTENTS : [])].map(([id, title]) => (
          <a key={id} href={`#${id}`}>
            {title}
          </a>
        ))}
      </nav>
      <ProfileSection session={session} />
      <PasswordSection />
      <SessionsSection />
      <ApiKeysSection session={session} />
      <AccessTokensSection />
      <ProvidersSection />
      <RelaySection />
      <SyncSection />
      <WebhooksSection />
      <ImportSection />
      <ExportSection />
      {admin && <CatalogEditsSection />}
      <DeleteAccountSection session={session} />
    </div>
  );
}
