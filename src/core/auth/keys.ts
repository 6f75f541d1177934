import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../toolkit/config-error.ts';
import { OperatingError } from '../../toolkit/operating-errors.ts';
import type { ServerKeys } from '../context.ts';

function derive(secret: Buffer, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, Buffer.alloc(0), `earshot:${purpose}`, 32));
}

export function deriveKeys(secret: string): ServerKeys {
  const material = Buffer.from(secret, 'utf8');
  return {
    jwt: derive(material, 'jwt'),
    apiKeySharedSecret: derive(material, 'apikey-shared-secret'),
    encryption: derive(material, 'encryption'),
    oauthState: derive(material, 'oauth-state'),
    streamUrl: derive(material, 'stream-url'),
  };
}

/**
 * The server secret comes from EARSHOT_SECRET, else from `<dataDir>/secret.key`,
 * which is created on first start readable by the owner only.
 */
export function loadServerSecret(explicit: string | undefined, dataDir: string): string {
  if (explicit) {
    if (explicit.length < 32)
      throw new ConfigError(`EARSHOT_SECRET must be at least 32 characters (it has ${explicit.length}); make one with: openssl rand -hex 32`);
    return explicit;
  }
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A new secret would sign everyone out and make sealed credentials unreadable: never replace one that cannot be read.
    if (code === 'EISDIR' || code === 'EACCES' || code === 'EPERM') {
      throw new OperatingError(
        'secret-unreadable',
        `cannot read the server secret ${file} (${code}): make it a file this user can read, or set EARSHOT_SECRET`,
        { cause: error },
      );
    }
    if (code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first; use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}
