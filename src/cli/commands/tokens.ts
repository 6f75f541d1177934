import { authenticatedClient } from '../api-client.ts';
import { jsonOption, parseCommandArgs, printJson, printTable, serverOption, type CommandRun } from '../command.ts';

export const tokenList: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { ...serverOption, ...jsonOption }, 0);
  const { tokens } = await authenticatedClient(values.server).call('GET', '/access-tokens');
  if (values.json) return printJson(tokens);
  printTable(
    // biome-ignore lint/suspicious/noExplicitAny: the token list is the server's JSON, printed as it comes
    tokens.map((token: any) => ({ ...token, secret: `…${token.lastFour}` })),
    ['id', 'name', 'secret', 'createdAt', 'lastUsedAt'],
  );
};

export const tokenCreate: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, serverOption, 1);
  const created = await authenticatedClient(values.server).call('POST', '/access-tokens', { name: positionals[0] });
  console.log(`Created access token "${created.name}" (${created.id}). Copy it now; it is not shown again:`);
  console.log(created.token);
};

export const tokenRevoke: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, serverOption, 1);
  await authenticatedClient(values.server).call('DELETE', `/access-tokens/${encodeURIComponent(positionals[0]!)}`);
  console.log(`Revoked ${positionals[0]}`);
};
