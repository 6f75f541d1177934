import { describe, expect, it } from 'vitest';
import { describeFailure } from './error-text.ts';
import { XrpcFailure } from './xrpc.ts';

const invalid = (message: string) => new XrpcFailure(400, 'InvalidRequest', message);

describe('describeFailure', () => {
  it('says a link with a mistyped id is broken, naming what the page shows', () => {
    expect(describeFailure(invalid('querystring/id must match format "uuid"'), 'song')).toEqual({
      heading: 'Broken link',
      message: 'This link is broken: the address does not name a song.',
    });
  });

  it('says validator rules in plain words, never the request path', () => {
    expect(describeFailure(invalid('querystring/id must match format "uuid"')).message).toBe('The id is not a valid identifier.');
    expect(describeFailure(invalid('body/newPassword must NOT have fewer than 8 characters')).message).toBe('The new password needs at least 8 characters.');
    expect(describeFailure(invalid('querystring/limit must be <= 100')).message).toBe('The limit must be at most 100.');
    expect(describeFailure(invalid("body must have required property 'title'")).message).toBe('The request lacks its title.');
    expect(describeFailure(invalid('body/items/0/kind must be a spaceship')).message).toBe('The kind was not accepted.');
  });

  it("keeps the server's own human messages", () => {
    expect(describeFailure(invalid('the year must be after 1900')).message).toBe('the year must be after 1900');
    expect(describeFailure(new XrpcFailure(401, 'AuthMissing', 'sign in first')).message).toBe('sign in first');
  });

  it('calls a missing thing not found', () => {
    expect(describeFailure(new XrpcFailure(404, 'NotFound', 'no song 1'), 'album')).toEqual({
      heading: 'Not found',
      message: 'There is no such album here: it may have been removed, or the link is mistyped.',
    });
  });
});
