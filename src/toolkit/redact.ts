/**
 * Logged URLs must not carry credentials, and the protocols spoken here put them in query
 * strings under many names (`token`, `api_key`, `sk`, `api_sig`, Audioscrobbler's `a`, Subsonic's
 * `p`/`t`/`s`, `?access_token=`, an OAuth callback's `state` and `code` …). A fixed list always
 * misses one, so a parameter is masked when its name looks credential-like, or its value looks
 * like a credential whatever the name.
 */

/** Name fragments that mean a credential wherever they appear (`access_token`, `apiKey`, `passwd`). */
const CREDENTIAL_NAME_FRAGMENT = /token|secret|passw|pwd|signature|credential|cookie|jwt|apikey|sessionkey|bearer/i;

/**
 * Whole words of a name that mean a credential; short ones only as words, so `author` or `keyword`
 * stay. OAuth's `state` and `code` are the keys to an authorization in flight (the callback URL).
 */
const CREDENTIAL_NAME_WORDS = new Set([
  'key',
  'sig',
  'auth',
  'authorization',
  'session',
  'sid',
  'sk',
  'pass',
  'code',
  'state',
  'nonce',
  'otp',
  'hash',
  'a',
  'p',
  's',
  't',
]);

const CREDENTIAL_VALUES = [
  /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/, // a JWT: its header is base64url JSON, so it begins `eyJ`
  /^[0-9a-f]{32,}$/i, // API keys, session keys, MD5 and SHA digests
  /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9+/_-]{32,}={0,2}$/, // long random base64 or base64url
];

/** The words of a parameter name: split at punctuation and camelCase humps, lower case. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME_FRAGMENT.test(name) || nameWords(name).some((word) => CREDENTIAL_NAME_WORDS.has(word));
}

/** UUIDs name rows (MBIDs, ids) and are never credentials here: every secret is one of the shapes above. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isCredentialValue(value: string): boolean {
  return !UUID.test(value) && CREDENTIAL_VALUES.some((pattern) => pattern.test(value));
}

/** A URL fit for logs: credential-bearing query values are masked. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  const redacted = new URLSearchParams();
  for (const [name, value] of params) {
    redacted.append(name, isCredentialName(name) || isCredentialValue(value) ? '***' : value);
  }
  return `${url.slice(0, queryStart)}?${redacted.toString()}`;
}
