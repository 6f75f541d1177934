import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { seedEmbeddedDatabase, startServe, stopServe } from '../cli/testing.ts';
import { lastfmSignature } from '../adapters/lastfm/signature.ts';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-logging-'));
after(() => fs.rmSync(home, { recursive: true, force: true }));

test('the most verbose request log (LOG_LEVEL=trace, JSON lines off a terminal) holds no password, token, key, secret or OAuth state and code', async () => {
  const env: Record<string, string | undefined> = { ...process.env, EARSHOT_DATA_DIR: path.join(home, 'data'), PORT: '0', LOG_LEVEL: 'trace' };
  delete env.DATABASE_URL;
  // The request log is the point here, not the embedded database's first start.
  await seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!);
  const { server, output, printed } = await startServe(env as Record<string, string>, false);
  let stderr = '';
  server.stderr!.on('data', (chunk) => (stderr += chunk));
  const api = /API: +(\S+)/.exec(output)![1]!;
  const scrobbler = /Scrobbler: +(\S+)/.exec(output)![1]!;
  const password = 'correct horse battery staple';
  const post = (url: string, body: unknown, token?: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<Record<string, string>>);
  try {
    await post(`${api}/auth/signup`, { handle: 'logged', password });
    const { token } = await post(`${api}/auth/login`, { identifier: 'logged', password });
    const { key, sharedSecret } = await post(`${api}/xrpc/app.svc.apikey.createApikey`, { name: 'player' }, token);
    assert.ok(token && key && sharedSecret);
    // Each credential also where clients put it: headers, query strings.
    await fetch(`${api}/xrpc/app.svc.apikey.getApikeys?access_token=${token}`);
    await fetch(`${scrobbler}/1/validate-token`, { headers: { authorization: `Token ${key}` } });
    await fetch(`${scrobbler}/1/validate-token?token=${key}`);
    await fetch(`${scrobbler}/2.0/?method=auth.getMobileSession&api_key=${key}&api_sig=${sharedSecret}&password=${encodeURIComponent(password)}`);
    // A signed GET that succeeds, as the npm `lastfm` client sends it: the password in the query string.
    const signIn = new Map([
      ['method', 'auth.getMobileSession'],
      ['username', 'logged'],
      ['password', password],
      ['api_key', key],
    ]);
    signIn.set('api_sig', lastfmSignature(signIn, sharedSecret));
    const session = await fetch(`${scrobbler}/2.0/?${new URLSearchParams([...signIn, ['format', 'json']])}`).then(
      (response) => response.json() as Promise<{ session: { key: string } }>,
    );
    assert.match(session.session.key, /^[0-9a-f]{32}$/);
    // A provider's redirect back: whoever holds its state and code can finish the authorization.
    const state = 'pXz3Wq9rKd2LmN8vB4tY6uH1sA5cE7fG.Jk2Lm3Nn4Pp5Qq6Rr7Ss8Tt9Uu0Vv1Ww2Xx3Yy4Zz5Aa6B';
    const code = '4/0AeanS0a-provider-code';
    await fetch(`${api}/providers/filehostA/callback?state=${state}&code=${encodeURIComponent(code)}&scope=drive`);
    server.kill('SIGTERM');
    const logged = (await printed(/^stopped$/m)) + stderr;
    assert.match(logged, /"msg":"incoming request"/);
    assert.match(logged, /"url":"\/providers\/filehostA\/callback\?state=\*\*\*&code=\*\*\*&scope=drive"/);
    for (const secret of [password, token, key, sharedSecret, session.session.key, state, state.split('.')[0]!, code, encodeURIComponent(code)]) {
      assert.ok(!logged.includes(secret), `the log holds ${secret}`);
    }
  } finally {
    await stopServe(server);
  }
});
