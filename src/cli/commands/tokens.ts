import { authenticatedClient } from '../api-client.ts';
import { parseCommandArgs, printTable, serverOption, type Command } from '../command.ts';

export const tokenList: Command = {
  path: ['token', 'list'],
  usage: 'token list [--server URL]',
  summary: 'List personal access tokens',
  async run(args) {
    const { values } = parseCommandArgs(this, args, serverOption, 0);
    const { tokens } = await authenticatedClient(values.server).call('GET', '/access-tokens');
    printTable(tokens.map((token: any) => ({ ...token, secret: `…${token.lastFour}` })), ['id', 'name', 'secret', 'createdAt', 'lastUsedAt']);
  },
};

export const tokenCreate: Command = {
  path: ['token', 'create'],
  usage: 'token create <name> [--server URL]',
  summary: 'Create a personal access token (the secret is shown once)',
  async run(args) {
    const { values, positionals } = parseCommandArgs(this, args, serverOption, 1);
    const created = await authenticatedClient(values.server).call('POST', '/access-tokens', { name: positionals[0] });
    console.log(`Created access token "${created.name}" (${created.id}). Copy it now; it is not shown again:`);
    console.log(created.token);
  },
};

export const tokenRevoke: Command = {
  path: ['token', 'revoke'],
  usage: 'token revoke <id> [--server URL]',
  summary: 'Revoke a personal access token immediately',
  async run(args) {
    const { values, positionals } = parseCommandArgs(this, args, serverOption, 1);
    await authenticatedClient(values.server).call('DELETE', `/access-tokens/${encodeURIComponent(positionals[0]!)}`);
    console.log(`Revoked ${positionals[0]}`);
  },
};
