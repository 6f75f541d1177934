/**
 * Failures in words a listener can act on. The server's own messages are written for people,
 * except its request validator's (`querystring/id must match format "uuid"`): those come from a
 * mistyped link or an out-of-date page, and are said again here in plain words.
 */
import { XrpcFailure } from './xrpc.ts';

export interface FailureText {
  heading: string;
  message: string;
}

/** `querystring/id must …`, `body/items/0/title must …`: where in the request, and the rule broken. */
const VALIDATOR = /^(?:querystring|body|params|headers)((?:\/[\w-]+)*) (must .*)$/;

/** Validator rules in plain words, keyed by how Ajv words them. */
const RULES: [RegExp, (found: RegExpExecArray) => string][] = [
  [/^must match format "(.+)"$/, ([, format]) => `is not a valid ${format === 'uuid' ? 'identifier' : format}`],
  [/^must NOT have fewer than (\d+) characters$/, ([, n]) => `needs at least ${n} characters`],
  [/^must NOT have more than (\d+) characters$/, ([, n]) => `allows at most ${n} characters`],
  [/^must be integer$/, () => 'must be a whole number'],
  [/^must be (>=|<=) (\S+)$/, ([, sign, n]) => `must be ${sign === '>=' ? 'at least' : 'at most'} ${n}`],
  [/^must have required property '(.+)'$/, ([, name]) => `lacks its ${name}`],
  [/^must be equal to one of the allowed values$/, () => 'is not one of the choices offered'],
];

function fieldName(where: string): string {
  const words = where.split('/').filter((part) => part && !/^\d+$/.test(part));
  return words.length === 0 ? 'request' : words[words.length - 1]!.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * What to say about a failure; `what` names the thing a page shows ("song"), for a link that
 * names none or one that no longer exists.
 */
export function describeFailure(error: unknown, what?: string): FailureText {
  if (!(error instanceof XrpcFailure)) {
    return { heading: 'Something went wrong', message: error instanceof Error ? error.message : String(error) };
  }
  if (error.error === 'NotFound' || error.status === 404) {
    return { heading: 'Not found', message: what ? `There is no such ${what} here: it may have been removed, or the link is mistyped.` : error.message };
  }
  const validator = error.error === 'InvalidRequest' ? VALIDATOR.exec(error.message) : null;
  if (!validator) return { heading: error.status === 0 ? 'Not connected' : 'Something went wrong', message: error.message };
  const [, where = '', rule = ''] = validator;
  if (what && where.startsWith('/') && error.message.startsWith('querystring') && /^must match format "uuid"$/.test(rule)) {
    return { heading: 'Broken link', message: `This link is broken: the address does not name a ${what}.` };
  }
  for (const [pattern, say] of RULES) {
    const found = pattern.exec(rule);
    if (found) return { heading: 'Please check the request', message: `The ${fieldName(where)} ${say(found)}.` };
  }
  return { heading: 'Please check the request', message: `The ${fieldName(where)} was not accepted.` };
}
