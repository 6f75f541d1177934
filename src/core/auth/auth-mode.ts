import type { CredentialKind } from './viewer.ts';

/**
 * What credentials an operation or route accepts. `required` takes any of them, API keys
 * included, so scrobbling clients can write and read their owner's data; `account` refuses API
 * keys (403 InsufficientScope) because they are not secret: Last.fm clients send them in clear
 * and the desktop sign-in URL carries one. Managing credentials needs `account`.
 */
export type AuthMode = 'none' | 'optional' | 'required' | 'account';

/** The credentials each mode lets through; the server enforces it and the OpenAPI document shows it. */
export const ACCEPTED_CREDENTIALS: Readonly<Record<AuthMode, readonly CredentialKind[]>> = {
  none: [],
  optional: ['session', 'access-token', 'api-key'],
  required: ['session', 'access-token', 'api-key'],
  account: ['session', 'access-token'],
};
