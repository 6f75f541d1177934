/** /settings: the signed-in user's account, credentials, connections, imports and data, one section each. */
import { useSession } from '../../api/session.ts';
import { Link } from '../../router.tsx';
import { AccessTokensSection } from './AccessTokensSection.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { ExportSection } from './ExportSection.tsx';
import { ImportSection } from './ImportSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';

const CONTENTS = [
  ['profile', 'Profile'],
  ['password', 'Password'],
  ['sessions', 'Devices'],
  ['api-keys', 'API keys'],
  ['access-tokens', 'Access tokens'],
  ['providers', 'Services'],
  ['import', 'Import'],
  ['export', 'Your data'],
] as const;

export function Settings() {
  const session = useSession();
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
        {CONTENTS.map(([id, title]) => (
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
      <ImportSection />
      <ExportSection />
    </div>
  );
}
