// Every spelling of this machine is refused at submission (issue 13): trailing dots, empty labels, case, shorthand,
// hexadecimal and octal IPv4, IPv4-mapped and -compatible IPv6, percent-encoded and full-width names.
import { describe, expect, it } from 'vitest';
import { checkSubmittedUrl, resolveTarget } from '../../src/checker/net/net-guard.js';
import { parseResolveMap } from '../../src/checker/net/address-policy.js';

const LOOPBACK_SPELLINGS = [
  'localhost',
  'localhost.',
  'localhost..',
  'localhost...',
  'LOCALHOST',
  'LocalHost.',
  'LOCALHOST..',
  'localhost:8080',
  'localhost.:80',
  'localhost..:443',
  'foo.localhost',
  'foo.localhost.',
  'foo.localhost..',
  'foo..localhost',
  'a.b.localhost..',
  '.localhost',
  '..localhost',
  '%6cocalhost',
  'localhost%2e',
  'localhost%2e%2e',
  'ｌｏｃａｌｈｏｓｔ',
  'ｌｏｃａｌｈｏｓｔ．．',
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '127.1.',
  '127.1..',
  '127.0.0.1.',
  '127.0.0.1..',
  '127.255.255.254...',
  '0x7f.1',
  '0x7f.1.',
  '0x7f.1..',
  '0x7f000001',
  '0x7f000001..',
  '2130706433',
  '2130706433..',
  '017700000001',
  '0177.0.0.1',
  '0177.0.0.1..',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '[0::1]',
  '0.0.0.0',
  '0',
  '0..',
  '[::]',
];

const OTHER_PRIVATE = ['10.0.0.1..', '10.1..', '192.168.1.1.', '169.254.169.254..', '0xa9.254.169.254', '[::ffff:10.0.0.1]', '[fd00::1]'];

describe('checkSubmittedUrl and the spellings of localhost', () => {
  it.each(LOOPBACK_SPELLINGS)('refuses http://%s/ as url_not_allowed', (host) => {
    for (const url of [`http://${host}/`, `https://${host}/p?awc=1`, `HTTP://${host}/x#y`]) {
      const result = checkSubmittedUrl(url);
      expect(result.ok, url).toBe(false);
      if (!result.ok) expect(result.code, url).toBe('url_not_allowed');
    }
  });

  it.each(OTHER_PRIVATE)('refuses the private address http://%s/', (host) => {
    const result = checkSubmittedUrl(`http://${host}/`);
    expect(result.ok ? 'ok' : result.code).toBe('url_not_allowed');
  });

  it('refuses other host names with empty labels inside as invalid, and keeps accepting normal ones', () => {
    for (const host of ['shop..example.com', '.example.com', '..', '...']) {
      const result = checkSubmittedUrl(`https://${host}/`);
      expect(result.ok ? 'ok' : result.code, host).toBe('invalid_url');
    }
    // Trailing dots are normalised away (every resolver drops them), so these are example.com.
    for (const host of [
      'example.com',
      'example.com.',
      'example.com..',
      'www.awin1.com',
      'localhost.example.com',
      'xn--bcher-kva.example',
      '93.184.215.14',
    ]) {
      expect(checkSubmittedUrl(`https://${host}/`).ok, host).toBe(true);
    }
  });

  it('matches the resolve map whatever the number of trailing dots', () => {
    const resolve = parseResolveMap('www.awin1.com=127.0.0.1');
    expect(checkSubmittedUrl('https://www.awin1.com../cread.php', resolve).ok).toBe(true);
  });

  it('never resolves a trailing-dot spelling to anything but a refusal in the engine', async () => {
    const lookupAll = async (name: string) =>
      name === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(new Error('ENOTFOUND'));
    for (const host of ['localhost..', 'foo.localhost..']) {
      const decision = await resolveTarget(host, undefined, lookupAll);
      expect(decision.ok, host).toBe(false);
    }
  });
});
