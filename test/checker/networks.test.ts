import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../src/checker/networks/catalogue.js';
import { detectChainNetworks, detectNetwork, getNetwork, toNetworkRef } from '../../src/checker/networks/detect.js';

const CONTRACT_IDS = [
  'awin',
  'shareasale',
  'cj',
  'impact',
  'rakuten',
  'amazon',
  'partnerize',
  'pepperjam',
  'tradedoubler',
  'webgains',
  'clickbank',
  'skimlinks',
  'sovrn',
  'flexoffers',
  'admitad',
  'commission_factory',
  'tradetracker',
  'daisycon',
  'ebay_partner_network',
  'partnerstack',
  'everflow',
  'tune',
  'refersion',
  'rewardful',
  'firstpromoter',
  'tapfiliate',
  'post_affiliate_pro',
  'digistore24',
  'ltk',
  'levanta',
  'linkby',
];

/** Parameter names far too common to identify a network on an arbitrary host. */
const GENERIC_PARAMS = new Set([
  'ref',
  'via',
  'tag',
  'id',
  'u',
  'url',
  'aff',
  'aff_id',
  'affid',
  'affiliate',
  'tid',
  'source',
  'src',
  'clickid',
  'click_id',
  'subid',
  'sub1',
  'campaign',
  'cid',
  'partner',
  'promo',
  'code',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'gclid',
  'fbclid',
  'transaction_id',
  'oid',
  'a',
  'c',
  's',
  'p',
]);

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/;

describe('catalogue invariants', () => {
  it('has at least 30 entries with unique snake_case ids', () => {
    expect(NETWORKS.length).toBeGreaterThanOrEqual(30);
    const ids = NETWORKS.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
  });

  it('contains every id named in the contract', () => {
    for (const id of CONTRACT_IDS) expect(getNetwork(id), id).toBeDefined();
  });

  it.each(NETWORKS.map((n) => [n.id, n] as const))('%s is well-formed', (_id, n) => {
    expect(['network', 'aggregator', 'shortener']).toContain(n.role);
    expect(n.name.trim()).not.toBe('');
    expect(n.sources.length).toBeGreaterThanOrEqual(1);
    for (const source of n.sources) expect(() => new URL(source)).not.toThrow();
    for (const source of n.sources) expect(source).toMatch(/^https?:\/\//);
    for (const host of n.hosts) expect(host.replace(/^\*\./, '')).toMatch(HOST);
    for (const path of n.paths) expect(() => new RegExp(path)).not.toThrow();
    if (n.deepLinkPathPattern !== null) {
      const pattern = new RegExp(`${n.deepLinkPathPattern}|`);
      expect(pattern.exec('')?.length ?? 0, 'needs a capture group').toBeGreaterThan(1);
    }
    for (const cookie of n.cookieNames) {
      expect(cookie).not.toBe('*');
      expect(cookie.slice(0, -1)).not.toContain('*');
    }
    if (n.defaultWindowDays !== null) expect(n.defaultWindowDays).toBeGreaterThan(0);
    if ((n.requiredParams?.length ?? 0) > 0 || (n.excludedParams?.length ?? 0) > 0) expect(n.hosts.length).toBeGreaterThan(0);
  });

  it('never lets two entries claim the same host pattern or signature parameter', () => {
    const hosts = NETWORKS.flatMap((n) => n.hosts);
    expect(new Set(hosts).size).toBe(hosts.length);
    const signatures = NETWORKS.flatMap((n) => n.signatureParams);
    expect(new Set(signatures).size).toBe(signatures.length);
  });

  it('uses only distinctive names as signature parameters', () => {
    for (const n of NETWORKS) {
      for (const param of n.signatureParams) expect(GENERIC_PARAMS.has(param.toLowerCase()), `${n.id}: ${param}`).toBe(false);
    }
  });

  it('can recognise every entry, or says in its notes why not', () => {
    for (const n of NETWORKS) {
      if (n.hosts.length === 0 && n.signatureParams.length === 0) expect(n.notes ?? '', n.id).toMatch(/NOT detected/);
    }
  });

  it('keeps shorteners and aggregators free of click ids of their own', () => {
    for (const n of NETWORKS.filter((e) => e.role !== 'network')) {
      expect(n.clickIdParams, n.id).toEqual([]);
      if (n.role === 'shortener') expect([n.linkParams, n.signatureParams, n.cookieNames], n.id).toEqual([[], [], []]);
    }
  });

  it('marks every entry absent from the research file as unverified somewhere in its notes', () => {
    const researched = new Set([...CONTRACT_IDS, 'howl', 'belboon', 'effiliation']);
    for (const n of NETWORKS.filter((e) => !researched.has(e.id) && e.role !== 'shortener')) {
      expect(n.notes ?? '', n.id).toMatch(/unverified|Not in the research file/);
    }
  });

  it('gets entries by id and turns them into refs', () => {
    expect(getNetwork('nope')).toBeUndefined();
    const awin = getNetwork('awin');
    expect(awin && toNetworkRef(awin)).toEqual({ id: 'awin', name: 'Awin', role: 'network' });
  });
});

/** One realistic link per entry (several for the tricky ones). */
const DETECTIONS: [string, string][] = [
  ['awin', 'https://www.awin1.com/cread.php?awinmid=12345&awinaffid=678901&ued=https%3A%2F%2Fwww.example-shoes.co.uk%2F'],
  ['awin', 'https://www.awin1.com/awclick.php?mid=12345&id=678901'],
  ['awin', 'https://www.zenaps.com/cread.php?awinmid=12345&awinaffid=678901'],
  ['shareasale', 'https://www.shareasale.com/r.cfm?B=612266&U=966033&M=53280&urllink='],
  ['shareasale', 'https://shareasale-analytics.com/r.cfm?b=1&u=2&m=3&afftrack=guide'],
  ['cj', 'https://www.tkqlhce.com/click-7274402-11428273'],
  ['cj', 'https://www.anrdoezrs.net/links/7654321/type/dlg/https://www.example-outdoor.com/tents'],
  ['cj', 'https://jdoqocy.com/click-100-200'],
  ['impact', 'https://example-outdoor.sjv.io/c/1234567/890123/4567'],
  ['impact', 'https://imp.pxf.io/c/1234567/890123/4567?u=https%3A%2F%2Fshop.example-outdoor.com%2F'],
  ['impact', 'https://example.evyy.net/c/1/2/3'],
  ['rakuten', 'https://click.linksynergy.com/fs-bin/click?id=AbCdEfGhIjK&offerid=123.1&type=3&subid=0'],
  ['rakuten', 'https://click.linksynergy.com/deeplink?id=AbCdEfGhIjK&mid=24680&murl=https%3A%2F%2Fwww.example-homewares.com%2F'],
  ['partnerize', 'https://prf.hn/click/camref:1101l3/pubref:guide'],
  ['partnerize', 'https://uk.prf.hn/click/camref:1101l3'],
  ['pepperjam', 'https://www.pntra.com/t/TUJGRkxMSUhOTUdJRkJGSkhKRkZO?url=https%3A%2F%2Fwww.example-beauty.com%2F'],
  ['pepperjam', 'https://www.gopjn.com/t/8-123-456-789'],
  ['tradedoubler', 'https://clk.tradedoubler.com/click?p=123456&a=2345678&g=24681357'],
  ['tradedoubler', 'https://clkuk.tradedoubler.com/click?p=1&a=2&g=3'],
  ['webgains', 'https://track.webgains.com/click.html?wgcampaignid=123456&wgprogramid=7890'],
  ['avantlink', 'https://www.avantlink.com/click.php?tt=cl&mi=10060&pw=123456&url=https%3A%2F%2Fwww.example-outdoor.com%2F'],
  ['avantlink', 'https://www.avantlink.com/click.php?tool_type=cl&merchant_id=c8f278e0&website_id=c81bf3d2'],
  ['flexoffers', 'https://track.flexlinkspro.com/g.ashx?foid=24.242107.6666419&trid=1524557.242107&foc=16&fot=9999&fos=6'],
  ['admitad', 'https://ad.admitad.com/g/1e8d114494b7e165239416525dc3e8/?ulp=https%3A%2F%2Fwww.example-gadgets.com%2F'],
  ['commission_factory', 'https://t.cfjump.com/94613/t/45861'],
  ['tradetracker', 'https://tc.tradetracker.net/?c=15640&m=12&a=448474&r=guide&u=%2Fitem%2F1.html'],
  ['daisycon', 'https://ds1.nl/c/?si=12345&li=1234567&wi=987654&ws=guide'],
  ['daisycon', 'https://rkn3.net/c/?si=14965&li=1650750&wi=387380&ws=superdry'],
  ['belboon', 'https://www1.belboon.de/adtracking/03a4f7b2c90e1d000123.html'],
  ['effiliation', 'https://track.effiliation.com/servlet/effi.redir?id_compteur=22012345&url=https%3A%2F%2Fwww.example-maison.fr%2F'],
  ['kwanko', 'https://action.metaffiliation.com/trk.php?mclic=P4F1A2B3C4D5E61'],
  ['adtraction', 'https://track.adtraction.com/t/t?a=1234567890&as=1234567890&t=2&tk=1'],
  ['bol_com', 'https://partner.bol.com/click/click?p=1&t=url&s=1234567&url=https%3A%2F%2Fwww.bol.com%2Fnl%2F'],
  ['linkby', 'https://go.linkby.com/UFBXYOJU/'],
  ['amazon', 'https://www.amazon.com/dp/B0EXAMPLE12?tag=examplepub-20&linkCode=ll1'],
  ['amazon', 'https://amazon.co.uk/gp/product/B0EXAMPLE12?tag=examplepub-21'],
  ['ebay_partner_network', 'https://www.ebay.com/itm/123456789012?mkevt=1&mkcid=1&mkrid=711-53200-19255-0&campid=5338123456&toolid=10001'],
  [
    'ebay_partner_network',
    'https://rover.ebay.com/rover/1/711-53200-19255-0/1?campid=5338123456&toolid=20004&mpre=https%3A%2F%2Fwww.ebay.com%2F',
  ],
  ['clickbank', 'https://examplepub.examplevend.hop.clickbank.net/?tid=guide'],
  ['clickbank', 'https://hop.clickbank.net/?affiliate=examplepub&vendor=examplevend'],
  ['digistore24', 'https://www.digistore24.com/redir/123456/examplepub/guide'],
  ['levanta', 'https://lvnta.com/lv_ILlWjOeeWqMN1DftfW'],
  ['partnerstack', 'https://n8n.partnerlinks.io/7fuarh1e6dz5'],
  ['partnerstack', 'https://www.example-crm.com/?ps_partner_key=ZXhhbXBsZQ&ps_xid=Qw3rTy9UiOp1As'],
  ['partnerstack', 'https://www.example-crm.com/?gspk=ZXhhbXBsZQ&gsxid=Qw3rTy9UiOp1As'],
  ['everflow', 'https://www.example-supplements.com/?_ef_transaction_id=&oid=1&affid=13'],
  ['tune', 'https://examplenet.go2cloud.org/aff_c?offer_id=123&aff_id=4567'],
  ['refersion', 'https://www.example-skincare.com/products/night-cream?rfsn=5012345.6a7b8c'],
  ['firstpromoter', 'https://www.example-saas.io/?fpr=jane42'],
  ['firstpromoter', 'https://www.example-saas.io/pricing?fp_ref=jane42'],
  ['tapfiliate', 'https://www.example-app.com/pricing?tap_a=12345-a1b2c3&tap_s=678901-d4e5f6'],
  ['post_affiliate_pro', 'https://www.example-hosting.com/affiliate/scripts/click.php?a_aid=5f1e2d3c&a_bid=11110001'],
  ['post_affiliate_pro', 'https://examplehost.postaffiliatepro.com/scripts/click.php?a_aid=5f1e2d3c'],
  ['skimlinks', 'https://go.skimresources.com/?id=114047X1572903&xs=1&url=https%3A%2F%2Fwww.example-shoes.co.uk%2F'],
  ['skimlinks', 'https://go.redirectingat.com/?id=96128X1608529&xs=1&url=https%3A%2F%2Fwww.example.com%2F'],
  ['sovrn', 'https://redirect.viglink.com/?key=0123456789abcdef0123456789abcdef&u=https%3A%2F%2Fwww.example.com%2F'],
  ['ltk', 'https://rstyle.me/+AbCdEfGhIj'],
  ['ltk', 'https://liketk.it/4abCD'],
  ['howl', 'https://shop-links.co/link/?publisher_slug=example&url=https%3A%2F%2Fwww.example.com%2F'],
  ['wildfire', 'https://wild.link/example/AbCd12'],
  ['shopstyle_collective', 'https://shopstyle.it/l/uLiD'],
  ['shopmy', 'https://go.shopmy.us/p-123456'],
  ['bitly', 'https://bit.ly/3xyzABC'],
  ['amazon_short', 'https://amzn.to/4eVZZqv'],
  ['amazon_short', 'https://a.co/d/abc1234'],
  ['ebay_short', 'https://ebay.us/pXpFi5'],
  ['awin_short', 'https://tidd.ly/3Rf6FpN'],
  ['shareasale_short', 'http://shrsl.com/2meh1-3brt-1iyev'],
  ['geniuslink', 'https://geni.us/AbCdE'],
  ['tinyurl', 'https://tinyurl.com/yc4h3x9z'],
  ['x_tco', 'https://t.co/AbCdEfGhIj'],
  ['owly', 'https://ow.ly/AbCd50Xyz'],
  ['rebrandly', 'https://rebrand.ly/example-offer'],
  ['cuttly', 'https://cutt.ly/AbCdEfG'],
  ['isgd', 'https://is.gd/AbCdEf'],
  ['buffer', 'https://buff.ly/3AbCdEf'],
  ['linkedin_short', 'https://lnkd.in/eAbCdEf'],
  ['googl', 'https://goo.gl/AbCdEf'],
  ['shorturl_at', 'https://shorturl.at/abCD1'],
];

describe('detectNetwork', () => {
  it.each(DETECTIONS)('recognises %s in %s', (id, url) => {
    expect(detectNetwork(url)?.id).toBe(id);
  });

  it('has a detection case for every entry that can be recognised', () => {
    const covered = new Set(DETECTIONS.map(([id]) => id));
    const recognisable = NETWORKS.filter((n) => n.hosts.length > 0 || n.signatureParams.length > 0);
    expect(recognisable.map((n) => n.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each([
    ['a bare "*.suffix" domain', 'https://sjv.io/c/1/2/3'],
    ['a look-alike host', 'https://notawin1.com/cread.php?awinmid=1'],
    ['a host merely containing a network domain', 'https://www.awin1.com.example-phish.com/cread.php'],
    ['a host ending in the suffix without a dot', 'https://evilsjv.io/c/1/2/3'],
    ['the ShareASale platform (not a click script)', 'https://www.shareasale.com/info/affiliates/'],
    ['the Tradedoubler corporate site', 'https://www.tradedoubler.com/en/'],
    ['the AvantLink home page', 'https://www.avantlink.com/'],
    ['a Daisycon domain outside /c/', 'https://www.ds1.nl/'],
    ['the Digistore24 checkout', 'https://www.digistore24.com/product/123456'],
    ['a plain Amazon product page', 'https://www.amazon.com/dp/B0EXAMPLE12'],
    ['an Amazon Attribution (Levanta) landing', 'https://www.amazon.com/dp/B0EXAMPLE12?maas=maas_adg_1_2&ref_=aa_maas&tag=maas'],
    ['a plain eBay item', 'https://www.ebay.com/itm/123456789012'],
    ['"tag" on a non-Amazon shop', 'https://www.example-shoes.co.uk/trainers?tag=summer'],
    ['"campid" on a non-eBay shop', 'https://shop.example-outdoor.com/?campid=5338123456'],
    ['"ref" alone (not Tapfiliate)', 'https://www.example-shoes.co.uk/?ref=alice'],
    ['"via" alone (not Rewardful)', 'https://news.example.com/story?via=twitter'],
    ["Awin's landing click id", 'https://www.example-shoes.co.uk/trainers?awc=12345_1717171717_abc&source=aw'],
    ["Impact's landing click id", 'https://shop.example-outdoor.com/boots?irclickid=Wc9Qx1Uo1xyKT0bRLr2n3UyqUkGQa0V1'],
    ["CJ's landing click id", 'https://www.example-outdoor.com/jackets?cjevent=1f2e3d4c5b6a11ef'],
    ["TUNE's landing transaction_id", 'https://www.example-vpn.com/deal?transaction_id=102a3b4c'],
    ['a merchant URL with utm parameters', 'https://www.example-shoes.co.uk/?utm_source=awin&utm_medium=affiliate'],
    ['a non-http scheme', 'ftp://www.awin1.com/cread.php'],
    ['a string that is not a URL', 'www.awin1.com/cread.php'],
  ])('ignores %s', (_what, url) => {
    expect(detectNetwork(url)).toBeNull();
  });

  it('matches hosts case-insensitively and in FQDN form, and accepts URL objects', () => {
    expect(detectNetwork('https://WWW.AWIN1.COM/cread.php?awinmid=1')?.id).toBe('awin');
    expect(detectNetwork('https://www.awin1.com./cread.php?awinmid=1')?.id).toBe('awin');
    expect(detectNetwork(new URL('https://Example.SJV.io/c/1/2/3'))?.id).toBe('impact');
  });

  describe('brand vanity click domains (Impact goto.<brand>.com)', () => {
    const vanity = 'https://goto.example-outdoor.com/c/1234567/890123/4567?subId1=guide';
    const landing = 'https://shop.example-outdoor.com/boots?irclickid=Wc9Qx1Uo1xyKT0bRLr2n3UyqUkGQa0V1&irgwc=1';
    const ids = (hops: { url: string; location: string | null }[]) => detectChainNetworks(hops).map((def) => def?.id ?? null);

    it('are not recognised from the link alone', () => {
      expect(detectNetwork(vanity)).toBeNull();
    });

    it('are Impact when the redirect they answer carries irclickid or irgwc', () => {
      expect(
        ids([
          { url: vanity, location: landing },
          { url: landing, location: null },
        ]),
      ).toEqual(['impact', null]);
      expect(ids([{ url: vanity, location: 'https://shop.example-outdoor.com/?irgwc=1' }])).toEqual(['impact']);
      // A relative Location, and a script-driven hop whose onward URL is the next hop's.
      expect(ids([{ url: 'https://goto.example.com/c/1/2/3', location: '/landing?irclickid=abc' }])).toEqual(['impact']);
      expect(
        ids([
          { url: vanity, location: null },
          { url: landing, location: null },
        ]),
      ).toEqual(['impact', null]);
    });

    it('are not Impact without the click id, or with another path', () => {
      expect(ids([{ url: vanity, location: 'https://shop.example-outdoor.com/boots?utm_source=impact' }])).toEqual([null]);
      expect(ids([{ url: vanity, location: null }])).toEqual([null]);
      expect(ids([{ url: 'https://goto.example.com/c/summer-sale', location: landing }])).toEqual([null]);
      expect(ids([{ url: 'https://goto.example.com/c/1/2/3/extra', location: landing }])).toEqual([null]);
      expect(ids([{ url: 'https://goto.example.com/c/1/2/3', location: 'http://[bad' }])).toEqual([null]);
    });

    it('leave hops a host rule knows to that rule', () => {
      const awin = 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2';
      expect(ids([{ url: awin, location: landing }])).toEqual(['awin']);
    });
  });

  it('gives a host match precedence over signature parameters', () => {
    expect(detectNetwork('https://www.awin1.com/cread.php?awinmid=1&rfsn=123.abc')?.id).toBe('awin');
    expect(detectNetwork('https://bit.ly/abc?fpr=jane')?.id).toBe('bitly');
  });

  it('falls back to signature parameters when a host rule does not pass', () => {
    expect(detectNetwork('https://www.amazon.com/dp/B0EXAMPLE12?rfsn=123.abc')?.id).toBe('refersion');
  });

  it('resolves several signatures by catalogue order, whatever their order in the URL', () => {
    expect(detectNetwork('https://shop.example.com/?fpr=a&rfsn=b')?.id).toBe('refersion');
    expect(detectNetwork('https://shop.example.com/?rfsn=b&fpr=a')?.id).toBe('refersion');
  });

  it('is fast enough to run on every hop', () => {
    const urls = DETECTIONS.map(([, url]) => url);
    const started = performance.now();
    for (let i = 0; i < 50_000; i++) detectNetwork(urls[i % urls.length] ?? '');
    // ~0.1 s measured; the bound only catches an accidental linear scan with regexes per entry.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
