import type { ProviderConfig, ProviderName } from '../../toolkit/config.ts';
import type { TestApp } from '../../app/testing.ts';
import { saveConnection } from './connections.ts';
import type { FakeOAuth } from './fake/oauth.ts';

/**
 * Points a running test app at a provider (a fake started on loopback after the app, so its
 * port is known only now), with the app's real URL as the OAuth redirect base.
 */
export function useProvider(app: TestApp, provider: ProviderName, config: ProviderConfig | undefined): void {
  app.ctx.config.publicUrl = app.apiUrl;
  app.ctx.config.providers = { ...app.ctx.config.providers, [provider]: config };
}

/** Connects the user's account straight from a grant of the fake, as a completed consent would. */
export async function connectWithFake(
  app: TestApp,
  userId: string,
  provider: ProviderName,
  oauth: FakeOAuth,
  account = { id: 'acct-1', name: 'fake-user' },
): Promise<void> {
  const grant = oauth.grant(account.name);
  await saveConnection(
    app.ctx,
    userId,
    provider,
    { accessToken: grant.accessToken, refreshToken: grant.refreshToken, expiresAt: new Date(Date.now() + grant.expiresIn * 1000) },
    account,
  );
}

/**
 * Connects as a browser would: GET /providers/<name>/connect with the user's token, follow the
 * redirect to the fake's consent page, which redirects back to the callback; answers the callback's reply.
 */
export async function connectThroughConsent(app: TestApp, token: string, provider: ProviderName, query = ''): Promise<{ status: number; body: any }> {
  const start = await fetch(`${app.apiUrl}/providers/${provider}/connect${query}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
  if (start.status !== 302) return { status: start.status, body: await start.json() };
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  // As a browser does: the binding cookie set by the connect redirect goes back to the callback.
  const cookie = start.headers
    .getSetCookie()
    .map((value) => value.split(';')[0]!)
    .join('; ');
  const callback = await fetch(consent.headers.get('location')!, { headers: { cookie } });
  return { status: callback.status, body: await callback.json() };
}
