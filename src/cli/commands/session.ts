import { requestJson, serverUrl } from '../api-client.ts';
import { parseCommandArgs, serverOption, type Command } from '../command.ts';
import { readCredentials, removeCredentials, writeCredentials } from '../credentials.ts';
import { readPassword } from '../password.ts';

export const login: Command = {
  path: ['login'],
  usage: 'login <handle-or-did> [--server URL]',
  summary: 'Sign in and remember the token for later commands',
  async run(args) {
    const { values, positionals } = parseCommandArgs(this, args, serverOption, 1);
    const server = serverUrl(values.server, readCredentials());
    const password = await readPassword();
    const session = await requestJson<{ did: string; handle: string; token: string; expiresAt: string }>(server, 'POST', '/auth/login', {
      identifier: positionals[0],
      password,
    });
    const file = writeCredentials({ server, handle: session.handle, did: session.did, token: session.token });
    console.log(`Logged in to ${server} as ${session.handle} until ${session.expiresAt} (token saved in ${file})`);
  },
};

export const logout: Command = {
  path: ['logout'],
  usage: 'logout',
  summary: 'Forget the stored token',
  async run(args) {
    parseCommandArgs(this, args, {}, 0);
    console.log(removeCredentials() ? 'Logged out' : 'Not logged in');
  },
};

export const whoami: Command = {
  path: ['whoami'],
  usage: 'whoami',
  summary: 'Show who the stored token belongs to',
  async run(args) {
    parseCommandArgs(this, args, {}, 0);
    const stored = readCredentials();
    console.log(stored ? `${stored.handle} (${stored.did}) on ${stored.server}` : 'Not logged in');
  },
};
