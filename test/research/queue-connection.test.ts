// The queue's address as errors, notices and a worker's log show it: never with its password.
import { describe, expect, it } from 'vitest';
import { shownUrl } from '../../src/research/queue/connection.js';

describe('the queue address as shown', () => {
  it('hides a password, with or without a user name, and keeps the rest', () => {
    expect(shownUrl('redis://:s3cret@10.0.0.5:6379/0')).toBe('redis://:***@10.0.0.5:6379/0');
    expect(shownUrl('redis://trader:p%40ss:w@10.0.0.5:6379/2')).toBe('redis://trader:***@10.0.0.5:6379/2');
    expect(shownUrl('rediss://:s3cret@host/0')).toBe('rediss://:***@host/0');
  });

  it('leaves an address without a password as it is', () => {
    for (const url of ['redis://10.0.0.5:6379/0', 'redis://trader@10.0.0.5:6379/0', 'redis://127.0.0.1:6379', '127.0.0.1:6379'])
      expect(shownUrl(url)).toBe(url);
  });
});
