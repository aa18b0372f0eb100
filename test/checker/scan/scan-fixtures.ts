// Realistic affiliate links for the scan tests, taken from the end-to-end network fixtures so that a catalogue
// change that breaks detection shows up here too.
import { NETWORK_LINK_FIXTURES, type NetworkLinkFixture } from '../../fixtures/network-links.js';

export function networkFixture(id: string): NetworkLinkFixture {
  const fixture = NETWORK_LINK_FIXTURES.find((f) => f.id === id);
  if (fixture === undefined) throw new Error(`no network fixture ${id}`);
  return fixture;
}

export const AWIN_LINK = networkFixture('awin').link;
export const SHAREASALE_LINK = networkFixture('shareasale').link;
export const CJ_LINK = networkFixture('cj').link;
export const AMAZON_LINK = networkFixture('amazon').link;
export const SKIMLINKS_LINK =
  'https://go.skimresources.com/?id=12345X678901&xs=1&url=https%3A%2F%2Fwww.example-shoes.co.uk%2Ftrainers%2Frunning';
export const AMZN_SHORT_LINK = 'https://amzn.to/3xYzAbC';

/** An href as a publisher's CMS writes it into HTML: `&` escaped. */
export function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}
