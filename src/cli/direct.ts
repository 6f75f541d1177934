/**
 * Commands that can work on the database directly (`--direct`), with no server running: the
 * user is named by `--user` or the last `earshot login`. The database, the app and the accounts'
 * code are imported only when a command does work directly: the same commands talking to a server
 * (the usual way) then load a fraction of the modules, which a command run often (an import per
 * file, from a script) pays at every start.
 */
import { XrpcError } from '../toolkit/errors.ts';
import { loadConfig } from '../toolkit/config.ts';
import type { AppContext } from '../core/context.ts';
import type { OwnedAppContext } from '../app/server.ts';
import { readCredentials } from './credentials.ts';

async function openDirectContext(): Promise<OwnedAppContext> {
  const { openAppContext } = await import('../app/server.ts');
  return openAppContext(loadConfig());
}
import { CliError, usageError } from './errors.ts';

export async function withDirectUser<T>(
  handle: string | undefined,
  run: (ctx: AppContext, user: { id: string; did: string; handle: string }) => Promise<T>,
): Promise<T> {
  const actor = handle ?? readCredentials()?.handle;
  if (!actor) throw usageError('--direct needs --user HANDLE (or a previous `earshot login`)');
  const ctx = await openDirectContext();
  try {
    const { findUserByActor } = await import('../core/auth/index.ts');
    const user = await findUserByActor(ctx.db, actor);
    if (!user) throw new CliError(`no user ${actor} in this database`);
    return await run(ctx, user);
  } finally {
    await ctx.close();
  }
}

/** Runs `work` on the database itself (on PGlite, the server must not be running on the same data directory). */
export async function onDatabase<T>(work: (db: AppContext['db']) => Promise<T>): Promise<T> {
  const ctx = await openDirectContext();
  try {
    return await work(ctx.db);
  } catch (error) {
    if (error instanceof XrpcError) throw new CliError(`${error.error}: ${error.message}`);
    throw error;
  } finally {
    await ctx.close();
  }
}
