import { authenticatedClient } from '../api-client.ts';
import { jsonOption, parseCommandArgs, printJson, printTable, serverOption, type CommandRun } from '../command.ts';

export const keyList: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { ...serverOption, ...jsonOption }, 0);
  const { apikeys } = await authenticatedClient(values.server).call('GET', '/xrpc/app.svc.apikey.getApikeys');
  if (values.json) return printJson(apikeys);
  printTable(apikeys, ['id', 'name', 'description', 'createdAt', 'lastUsedAt']);
};

export const keyCreate: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, { ...serverOption, description: { type: 'string' } }, 1);
  const client = authenticatedClient(values.server);
  const created = await client.call('POST', '/xrpc/app.svc.apikey.createApikey', {
    name: positionals[0],
    ...(values.description ? { description: values.description } : {}),
  });
  console.log(`Created API key "${created.name}" (${created.id}). Copy these now; they are not shown again:`);
  console.log(`  key:           ${created.key}`);
  console.log(`  shared secret: ${created.sharedSecret}`);
};

export const keyRemove: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, serverOption, 1);
  await authenticatedClient(values.server).call('POST', '/xrpc/app.svc.apikey.removeApikey', { id: positionals[0] });
  console.log(`Removed ${positionals[0]}`);
};
