import { createUser, setAdmin } from '../../core/auth/index.ts';
import { requestJson, serverUrl } from '../api-client.ts';
import { parseCommandArgs, serverOption, type CommandRun } from '../command.ts';
import { readCredentials } from '../credentials.ts';
import { onDatabase } from '../direct.ts';
import { CliError } from '../errors.ts';
import { readPassword } from '../password.ts';

const createDirectly = (handle: string, password: string, displayName: string | undefined) =>
  onDatabase((db) => createUser(db, { handle, password, displayName }));

export const userCreate: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(
    command,
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
};

/** `user promote` and `user demote`: whether the user may edit the shared catalog, set on the database. */
function adminCommand(admin: boolean): CommandRun {
  return async (args, command) => {
    const { positionals } = parseCommandArgs(command, args, {}, 1);
    const handle = positionals[0]!;
    if (!(await onDatabase((db) => setAdmin(db, handle, admin)))) throw new CliError(`no user ${handle}`);
    console.log(admin ? `${handle} is now an admin` : `${handle} is no longer an admin`);
  };
}

export const userPromote = adminCommand(true);
export const userDemote = adminCommand(false);
