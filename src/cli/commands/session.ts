import { ApiError, requestJson, serverUrl } from '../api-client.ts';
import { parseCommandArgs, serverOption, type CommandRun } from '../command.ts';
import { readCredentials, removeCredentials, writeCredentials } from '../credentials.ts';
import { CliError } from '../errors.ts';
import { readPassword } from '../password.ts';

export const login: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, serverOption, 1);
  const server = serverUrl(values.server, readCredentials());
  const password = await readPassword();
  const session = await requestJson<{ did: string; handle: string; token: string; expiresAt: string }>(server, 'POST', '/auth/login', {
    identifier: positionals[0],
    password,
  });
  const file = writeCredentials({ server, handle: session.handle, did: session.did, token: session.token });
  console.log(`Logged in to ${server} as ${session.handle} until ${session.expiresAt} (token saved in ${file})`);
};

export const logout: CommandRun = async (args, command) => {
  parseCommandArgs(command, args, {}, 0);
  const stored = readCredentials();
  if (!stored) return void console.log('Not logged in');
  // Forgotten first: even when the server cannot be reached, this machine no longer holds it.
  removeCredentials();
  try {
    await requestJson(stored.server, 'POST', '/auth/logout', undefined, stored.token);
    console.log(`Logged out of ${stored.server}: the session is ended there and the token forgotten`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return void console.log('Logged out (the session had already ended or expired)');
    throw new CliError(`forgot the stored token, but the server did not end the session: ${(error as Error).message}`);
  }
};

export const whoami: CommandRun = async (args, command) => {
  parseCommandArgs(command, args, {}, 0);
  const stored = readCredentials();
  console.log(stored ? `${stored.handle} (${stored.did}) on ${stored.server}` : 'Not logged in');
};
