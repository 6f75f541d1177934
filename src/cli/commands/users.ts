import { loadConfig } from '../../config.ts';
import { createUser } from '../../auth/index.ts';
import { XrpcError } from '../../api/errors.ts';
import { openAppContext } from '../../server.ts';
import { requestJson, serverUrl } from '../api-client.ts';
import { parseCommandArgs, serverOption, type Command } from '../command.ts';
import { readCredentials } from '../credentials.ts';
import { CliError } from '../errors.ts';
import { readPassword } from '../password.ts';

async function createDirectly(handle: string, password: string, displayName: string | undefined) {
  const ctx = await openAppContext(loadConfig());
  try {
    return await createUser(ctx.db, { handle, password, displayName });
  } catch (error) {
    if (error instanceof XrpcError) throw new CliError(`${error.error}: ${error.message}`);
    throw error;
  } finally {
    await ctx.close();
  }
}

export const userCreate: Command = {
  path: ['user', 'create'],
  usage: 'user create <handle> [--display-name NAME] [--direct] [--server URL]',
  summary: 'Create an account (through the running server, or --direct on the database)',
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      this,
      args,
      { ...serverOption, 'display-name': { type: 'string' }, direct: { type: 'boolean', default: false } },
      1,
    );
    const handle = positionals[0]!;
    const password = await readPassword(`Password for ${handle}: `);
    const displayName = values['display-name'];
    const user = values.direct
      ? await createDirectly(handle, password, displayName)
      : await requestJson<{ did: string; handle: string }>(serverUrl(values.server, readCredentials()), 'POST', '/auth/signup', {
          handle,
          password,
          ...(displayName ? { displayName } : {}),
        });
    console.log(`Created ${user.handle} (${user.did})`);
  },
};
