import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../server/error-log/rate-limit.js';
import { checkEntryBody, EntryValidationError } from '../../server/error-log/schema.js';
import { ERROR_LOG_LIMITS } from '../../server/contract/gateway.js';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('RateLimiter', () => {
  it('allows a burst of capacity, then refills at the configured rate', () => {
    const time = clock();
    const limiter = new RateLimiter({ capacity: 3, refillPerMinute: 6, maxClients: 10, now: time.now });
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
    time.advance(9_999);
    expect(limiter.take('a')).toBe(false);
    time.advance(1);
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
    // A long pause refills to the capacity, never past it.
    time.advance(10 * 60_000);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
  });

  it('keeps clients apart', () => {
    const time = clock();
    const limiter = new RateLimiter({ capacity: 1, refillPerMinute: 1, maxClients: 10, now: time.now });
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
    expect(limiter.take('b')).toBe(true);
  });

  it('forgets the least recently seen client when full', () => {
    const time = clock();
    const limiter = new RateLimiter({ capacity: 1, refillPerMinute: 1, maxClients: 2, now: time.now });
    limiter.take('a');
    limiter.take('b');
    limiter.take('a'); // a is now the most recent
    limiter.take('c'); // evicts b
    expect(limiter.size).toBe(2);
    expect(limiter.take('a')).toBe(false);
    expect(limiter.take('c')).toBe(false);
    expect(limiter.take('b')).toBe(true); // forgotten, so a fresh bucket
  });
});

describe('checkEntryBody', () => {
  it('accepts the four known fields and returns only them', () => {
    const result = checkEntryBody({ message: 'boom', url: '/x', stack: 'at f', info: 'render' });
    expect(result).toEqual({ value: { message: 'boom', url: '/x', stack: 'at f', info: 'render' } });
    expect(checkEntryBody({ message: '', url: '' })).toEqual({ value: { message: '', url: '' } });
  });

  it.each([
    ['not an object', 'boom', /JSON object/],
    ['an array', [{ message: 'a', url: '/' }], /JSON object/],
    ['null', null, /JSON object/],
    ['no message', { url: '/' }, /"message"/],
    ['no url', { message: 'a' }, /"url"/],
    ['a number message', { message: 123, url: '/' }, /message must be a string/],
    ['an array url', { message: 'a', url: ['/'] }, /url must be a string/],
    ['a null stack', { message: 'a', url: '/', stack: null }, /stack must be a string/],
    ['an unknown field', { message: 'a', url: '/', userId: 'admin' }, /unknown property "userId"/],
  ])('refuses %s with a 400', (_name, body, pattern) => {
    const result = checkEntryBody(body);
    expect('error' in result).toBe(true);
    if (!('error' in result)) return;
    expect(result.error).toBeInstanceOf(EntryValidationError);
    expect(result.error.statusCode).toBe(400);
    expect(result.error.message).toMatch(pattern);
  });

  it('calls an over-long field a size violation (413)', () => {
    const result = checkEntryBody({ message: 'm'.repeat(ERROR_LOG_LIMITS.maxMessageChars + 1), url: '/' });
    expect('error' in result && result.error.statusCode).toBe(413);
    const atLimit = checkEntryBody({ message: 'm'.repeat(ERROR_LOG_LIMITS.maxMessageChars), url: '/' });
    expect('value' in atLimit).toBe(true);
  });
});
