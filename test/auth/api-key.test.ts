import { describe, expect, it } from 'vitest';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key.js';
import { detectTokenKind } from '../../src/auth/token-kind.js';

describe('generateApiKey', () => {
  it('has the contract format pg_live_<lowercase uuid v4>', () => {
    for (let i = 0; i < 200; i += 1) {
      const key = generateApiKey();
      expect(key).toMatch(/^pg_live_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(detectTokenKind(key)).toBe('api_key');
    }
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });
});

describe('hashApiKey', () => {
  it('is SHA-256 hex (FIPS 180-2 test vectors)', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashApiKey('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('is deterministic, 64 lowercase hex characters, and differs per key', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(generateApiKey()));
  });
});

describe('apiKeyPrefix', () => {
  it('is the first 12 characters', () => {
    expect(apiKeyPrefix('pg_live_0f8fad5b-d9cb-469f-a165-70867728950e')).toBe('pg_live_0f8f');
    const key = generateApiKey();
    expect(apiKeyPrefix(key)).toHaveLength(12);
    expect(key.startsWith(apiKeyPrefix(key))).toBe(true);
  });
});
