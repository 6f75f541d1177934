/**
 * The providers Earshot can talk to. Adding one takes three steps:
 * 1. a client module `providers/<name>/client.ts` implementing the interface of its kind
 *    (types.ts) over the provider's real HTTP API, with every URL from its ProviderConfig;
 * 2. its name in config.ts (ProviderName, defaults, environment prefix) and a line below;
 * 3. a fake in `providers/<name>/fake.ts` speaking the same protocol on loopback, and tests
 *    against it. A provider without a configured client id is off, and says so.
 */
import { PROVIDER_NAMES, type Config, type ProviderConfig, type ProviderName } from '../../toolkit/config.ts';
import { ProviderError } from './errors.ts';
import { createFileHostAClient } from './filehost-a/client.ts';
import { createFileHostBClient } from './filehost-b/client.ts';
import { createMusicstreamClient } from './musicstream/client.ts';
import type { AnyProviderClient, FileHostClient, StreamingClient } from './types.ts';

const FACTORIES: { [P in ProviderName]: (config: ProviderConfig) => P extends 'musicstream' ? StreamingClient : FileHostClient } = {
  filehostA: createFileHostAClient,
  filehostB: createFileHostBClient,
  musicstream: createMusicstreamClient,
};

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/** The provider's configuration, or ProviderError 'NotConfigured'. */
export function providerConfig(config: Config, name: ProviderName): ProviderConfig {
  const settings = config.providers[name];
  if (!settings) {
    const prefix = name.toUpperCase();
    throw new ProviderError('NotConfigured', name, `${name} is not configured on this server (set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET)`);
  }
  return settings;
}

export function providerClient<P extends ProviderName>(config: Config, name: P): ReturnType<(typeof FACTORIES)[P]> {
  return FACTORIES[name](providerConfig(config, name)) as ReturnType<(typeof FACTORIES)[P]>;
}

/** The configured providers, by name. */
export function configuredProviders(config: Config): ProviderName[] {
  return PROVIDER_NAMES.filter((name) => config.providers[name] !== undefined);
}

export type { AnyProviderClient };
