import { PROVIDER_NAMES } from '../../config.ts';
import { authenticatedClient } from '../api-client.ts';
import { jsonOption, parseCommandArgs, printJson, printTable, serverOption, type CommandRun } from '../command.ts';
import { usageError } from '../errors.ts';

function providerArgument(name: string | undefined): string {
  if (!name || !(PROVIDER_NAMES as readonly string[]).includes(name)) throw usageError(`the provider must be one of ${PROVIDER_NAMES.join(', ')}`);
  return name;
}

export const providerList: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { ...serverOption, ...jsonOption }, 0);
  const { available, connections } = await authenticatedClient(values.server).call('GET', '/xrpc/app.svc.provider.getConnections');
  if (values.json) return printJson({ available, connections });
  console.log(`Offered by this server: ${available.length > 0 ? available.join(', ') : 'none (see the README: Cloud file hosts and the streaming service)'}`);
  printTable(connections, ['provider', 'status', 'accountName', 'folder', 'lastSyncAt', 'lastPolledAt', 'statusReason']);
};

export const providerConnect: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, { ...serverOption, folder: { type: 'string' } }, 1);
  const provider = providerArgument(positionals[0]);
  const query = values.folder ? `?folder=${encodeURIComponent(values.folder)}` : '';
  const { url, expiresAt } = await authenticatedClient(values.server).call('POST', `/providers/${provider}/connect${query}`);
  console.log(`Open this page in a browser and allow access (before ${expiresAt}):\n  ${url}`);
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
  console.log(`${host} ${report.folder}: ${report.added} added, ${report.updated} updated, ${report.removed} removed, ${report.unchanged} unchanged, ${report.skippedCount} skipped (${report.durationMs} ms)`);
  for (const skipped of report.skipped) console.log(`  skipped ${skipped.path}: ${skipped.reason}`);
};
