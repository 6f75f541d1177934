/** Query parameters that carry credentials in the protocols this service speaks. */
const SECRET_PARAMS = new Set(['token', 'sk', 's', 'a', 'api_sig', 'password', 'api_key', 'auth']);

/** A URL fit for logs: credential-bearing query values are masked. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of params.keys()) if (SECRET_PARAMS.has(name)) params.set(name, '***');
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}
