import assert from 'node:assert/strict';
import { SubsonicAPI } from 'subsonic-api';
import type { TestApp } from '../../app/testing.ts';

/** A signed-up user (with their sign-in token) and one of their API keys: the Subsonic username and password. */
export async function subsonicUser(app: TestApp, handle: string): Promise<{ handle: string; key: string; userId: string; did: string; token: string }> {
  const user = await app.signup(handle);
  const created = await app.procedure('app.svc.apikey.createApikey', { name: 'subsonic' }, user.token);
  if (created.status !== 200) throw new Error(`createApikey failed: ${JSON.stringify(created.body)}`);
  const row = await app.ctx.db.selectFrom('users').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow();
  return { handle: user.handle, key: created.body.key, userId: row.id, did: user.did, token: user.token };
}

/** The real npm client, as an app would configure it (token authentication). */
export function subsonicClient(app: TestApp, auth: { username: string; password: string } | { apiKey: string }, post = false): SubsonicAPI {
  return new SubsonicAPI({ url: app.apiUrl, auth, post });
}

/** A raw `/rest/<method>.view` GET, for the parameters the client does not send itself. */
export async function rest(app: TestApp, method: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.apiUrl}/rest/${method}.view?${new URLSearchParams(params)}`, { headers });
}

/** The `subsonic-response` of a JSON answer. */
export async function restJson(app: TestApp, method: string, params: Record<string, string>): Promise<any> {
  const response = await rest(app, method, { f: 'json', ...params });
  return ((await response.json()) as any)['subsonic-response'];
}

/** The client types answers as successes; a failure's code is read past that. */
export const errorCode = (response: object) => (response as { error?: { code: number } }).error?.code;

/** A simple check that tags nest and close properly and attribute values hold no raw markup. */
export function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  for (const match of body.matchAll(/<(\/?)([\w-]+)((?:\s+[\w:-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>|([^<]+)/g)) {
    const [, closing, name, , selfClosing, text] = match;
    if (text !== undefined) {
      assert.doesNotMatch(text, /&(?!(amp|lt|gt|quot|apos);)/, 'text has a raw ampersand');
      continue;
    }
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the open element`);
    else if (!selfClosing) stack.push(name!);
  }
  assert.equal(stack.length, 0, 'every element is closed');
  assert.equal(body.replace(/<(\/?)([\w-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|[^<]+/g, ''), '', 'nothing but elements and text');
}
