import { PROVIDER_NAMES } from '../../toolkit/config.ts';
import { authenticatedClient } from '../api-client.ts';
import { jsonOption, parseCommandArgs, printJson, printTable, serverOption, type CommandRun } from '../command.ts';
import { usageError } from '../errors.ts';
import { readAnswer } from '../password.ts';

function providerArgument(name: string | undefined): string {
  if (!name || !(PROVIDER_NAMES as readonly string[]).includes(name)) throw usageError(`the provider must be one of ${PROVIDER_NAMES.join(', ')}`);
  return name;
}

export const providerList: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { ...serverOption, ...jsonOption }, 0);
  const { available, connections } = await authenticatedClient(values.server).call('GET', '/xrpc/app.svc.provider.getConnections');
  if (values.json) return printJson({ available, connections });
  console.log(`Offered by this server: ${available.length > 0 ? available.join(', ') : 'none (see docs/using/providers.md)'}`);
  printTable(connections, ['provider', 'status', 'accountName', 'folder', 'lastSyncAt', 'lastPolledAt', 'statusReason']);
};

/**
 * The consent page is opened in whatever browser, so no cookie binds it to this command: it is
 * started with finish=client and finished here, with this account's credentials, from the address
 * the browser ends at (a consent link passed on to someone else connects nothing).
 */
export const providerConnect: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, { ...serverOption, folder: { type: 'string' } }, 1);
  const provider = providerArgument(positionals[0]);
  const query = new URLSearchParams({ finish: 'client', ...(values.folder ? { folder: values.folder } : {}) });
  const client = authenticatedClient(values.server);
  const { url, expiresAt } = await client.call('POST', `/providers/${provider}/connect?${query}`);
  console.log(`Open this page in a browser and allow access (before ${expiresAt}):\n  ${url}`);
  const address = (await readAnswer('Then paste the address the browser ends at: ')).trim();
  let callback: URL;
  try {
    callback = new URL(address);
  } catch {
    throw usageError(`that is not an address: ${address}`);
  }
  // Providers add parameters of their own (scope, authuser): only the authorization's are sent.
  const answer = Object.fromEntries(
    ['state', 'code', 'error'].flatMap((name) => (callback.searchParams.has(name) ? [[name, callback.searchParams.get(name)]] : [])),
  );
  const { message } = await client.call('POST', `/providers/${provider}/complete`, answer);
  console.log(message);
};

export const providerDisconnect: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, serverOption, 1);
  const provider = providerArgument(positionals[0]);
  await authenticatedClient(values.server).call('POST', '/xrpc/app.svc.provider.disconnect', { provider });
  console.log(`Disconnected ${provider}`);
};

export const providerSync: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, { ...serverOption, folder: { type: 'string' } }, 1);
  const host = positionals[0];
  if (host !== 'filehostA' && host !== 'filehostB') throw usageError('the file host must be filehostA or filehostB');
  const report = await authenticatedClient(values.server).call('POST', `/xrpc/app.svc.${host}.sync`, values.folder ? { folder: values.folder } : {});
  if (report.status === 'already-scanning') return console.log(`${host}: a sync of ${report.folder} is already running`);
  console.log(
    `${host} ${report.folder}: ${report.added} added, ${report.updated} updated, ${report.removed} removed, ${report.unchanged} unchanged, ${report.skippedCount} skipped (${report.durationMs} ms)`,
  );
  for (const skipped of report.skipped) console.log(`  skipped ${skipped.path}: ${skipped.reason}`);
};
