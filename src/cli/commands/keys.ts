import { authenticatedClient } from '../api-client.ts';
import { parseCommandArgs, printTable, serverOption, type Command } from '../command.ts';

export const keyList: Command = {
  path: ['key', 'list'],
  usage: 'key list [--server URL]',
  summary: 'List API keys',
  async run(args) {
    const { values } = parseCommandArgs(this, args, serverOption, 0);
    const { apikeys } = await authenticatedClient(values.server).call('GET', '/xrpc/app.svc.apikey.getApikeys');
    printTable(apikeys, ['id', 'name', 'description', 'createdAt', 'lastUsedAt']);
  },
};

export const keyCreate: Command = {
  path: ['key', 'create'],
  usage: 'key create <name> [--description TEXT] [--server URL]',
  summary: 'Create an API key for a scrobbler client (key and secret are shown once)',
  async run(args) {
    const { values, positionals } = parseCommandArgs(this, args, { ...serverOption, description: { type: 'string' } }, 1);
    const client = authenticatedClient(values.server);
    const created = await client.call('POST', '/xrpc/app.svc.apikey.createApikey', {
      name: positionals[0],
      ...(values.description ? { description: values.description } : {}),
    });
    console.log(`Created API key "${created.name}" (${created.id}). Copy these now; they are not shown again:`);
    console.log(`  key:           ${created.key}`);
    console.log(`  shared secret: ${created.sharedSecret}`);
  },
};

export const keyRemove: Command = {
  path: ['key', 'remove'],
  usage: 'key remove <id> [--server URL]',
  summary: 'Delete an API key; clients using it are refused from then on',
  async run(args) {
    const { values, positionals } = parseCommandArgs(this, args, serverOption, 1);
    await authenticatedClient(values.server).call('POST', '/xrpc/app.svc.apikey.removeApikey', { id: positionals[0] });
    console.log(`Removed ${positionals[0]}`);
  },
};
