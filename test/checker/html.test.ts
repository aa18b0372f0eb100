import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../src/checker/follow/html-entities.js';
import { parseRefresh, scanHtml } from '../../src/checker/follow/html.js';
import { decodeLocation } from '../../src/checker/follow/next-hop.js';
import { detectBotWall, readAvailability } from '../../src/checker/follow/page-facts.js';
import { findScriptRedirects, readStringLiteral, stripJsComments } from '../../src/checker/follow/script-redirect.js';

describe('scanHtml', () => {
  it('reads the first title, decoded and with whitespace collapsed', () => {
    expect(scanHtml('<html><head><TITLE>\n  Running  Shoes &amp; More &#8211; Shop&nbsp;UK </TITLE><title>second</title>').title).toBe(
      'Running Shoes & More \u2013 Shop UK',
    );
    expect(scanHtml('<title></title>').title).toBeNull();
    expect(scanHtml('<p>no title</p>').title).toBeNull();
  });

  it('finds the first refresh meta in any case and quote style', () => {
    expect(scanHtml('<META HTTP-EQUIV="Refresh" CONTENT="0;URL=/a">').metaRefresh).toBe('0;URL=/a');
    expect(scanHtml("<meta http-equiv='refresh' content='3; url=https://x.test/?a=1&amp;b=2'>").metaRefresh).toBe(
      '3; url=https://x.test/?a=1&b=2',
    );
    expect(scanHtml('<meta content="0; url=/b" http-equiv=refresh>').metaRefresh).toBe('0; url=/b');
    expect(scanHtml('<meta http-equiv=refresh content=0;url=/c>').metaRefresh).toBe('0;url=/c');
    expect(scanHtml('<meta http-equiv="refresh" content="0;url=/1"><meta http-equiv="refresh" content="0;url=/2">').metaRefresh).toBe(
      '0;url=/1',
    );
  });

  it('ignores refresh metas in comments, noscript, templates and scripts (scripting is on)', () => {
    const html = `<!-- <meta http-equiv="refresh" content="0;url=/comment"> -->
      <noscript><meta http-equiv="refresh" content="0;url=/noscript"></noscript>
      <template><meta http-equiv="refresh" content="0;url=/template"></template>
      <script>document.write('<meta http-equiv="refresh" content="0;url=/script">')</script>
      <textarea><meta http-equiv="refresh" content="0;url=/textarea"></textarea>`;
    expect(scanHtml(html).metaRefresh).toBeNull();
  });

  it('keeps a ">" inside a quoted attribute value', () => {
    expect(scanHtml('<meta http-equiv="refresh" content="0; url=/a?x=1>2"><title>t</title>').metaRefresh).toBe('0; url=/a?x=1>2');
  });

  it('collects inline classic scripts and body onload, but not external, JSON or template scripts', () => {
    const scan = scanHtml(`<script>one()</script><SCRIPT type="text/javascript">two()</SCRIPT>
      <script src="/x.js">ignored()</script><script type="module">three()</script>
      <script type="text/template">nope()</script><script type="application/json">{"a":1}</script>
      <body onload="four()">`);
    expect(scan.inlineScripts).toEqual(['one()', 'two()', 'three()', 'four()']);
  });

  it('collects JSON-LD blocks, <base href> and microdata availability', () => {
    const scan = scanHtml(`<base href="https://cdn.test/base/"><base href="/ignored/">
      <script type="application/ld+json">{"@type":"Product"}</script>
      <link itemprop="availability" href="https://schema.org/InStock">
      <meta itemprop="availability" content="OutOfStock">
      <span itemprop="price availability">Sold Out</span>`);
    expect(scan.baseHref).toBe('https://cdn.test/base/');
    expect(scan.jsonLd).toEqual(['{"@type":"Product"}']);
    expect(scan.microdataAvailability).toEqual(['https://schema.org/InStock', 'OutOfStock', 'Sold Out']);
  });

  it('copes with broken markup and is linear on hostile input', () => {
    expect(() => scanHtml('<<<>>><meta <title <script')).not.toThrow();
    expect(scanHtml('<script>unterminated').inlineScripts).toEqual(['unterminated']);
    const hostile = '<a '.repeat(50_000) + '<meta x="'.repeat(20_000);
    const started = performance.now();
    scanHtml(hostile);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#x27; &#x1F600;', false)).toBe('a & b <c> "d" \'e\' \u{1F600}');
  });

  it('keeps unknown names and legacy names before "=" in attributes', () => {
    expect(decodeEntities('?a=1&copy=2&amp=3&unknown;', true)).toBe('?a=1&copy=2&amp=3&unknown;');
    expect(decodeEntities('&copy 2026', false)).toBe('\u00a9 2026');
    expect(decodeEntities('&#0;&#xD800;', false)).toBe('\ufffd\ufffd');
  });
});

describe('parseRefresh', () => {
  it.each([
    ['0; url=https://a.test/x', 0, 'https://a.test/x'],
    ['0;URL=/x', 0, '/x'],
    ['5 ; Url = "/quoted" ignored', 5, '/quoted'],
    ["1, url='/single'", 1, '/single'],
    ['0; /bare/path', 0, '/bare/path'],
    ['3.5; url=/fraction', 3, '/fraction'],
    ['.5;url=/dot', 0, '/dot'],
    ['  2  url=/space', 2, '/space'],
    ['0;url=', 0, null],
    ['10', 10, null],
    ['0', 0, null],
  ])('parses %j', (content, delay, url) => {
    expect(parseRefresh(content)).toEqual({ delaySeconds: delay, url });
  });

  it.each(['', 'url=/x', 'abc', '; url=/x', '0x; url=/x'])('rejects %j', (content) => {
    expect(parseRefresh(content)).toBeNull();
  });
});

describe('script redirects', () => {
  const literal = (js: string): string[] => findScriptRedirects([js]).literals;

  it.each([
    ['location.href = "https://a.test/1";', 'https://a.test/1'],
    ["location = '/2'", '/2'],
    ['window.location = "/3";', '/3'],
    ['window.location.href="/4"', '/4'],
    ['document.location = "/5";', '/5'],
    ['document.location.href = "/6";', '/6'],
    ['top.location = "/7";', '/7'],
    ['top.location.href = "/8";', '/8'],
    ['location.replace("/9");', '/9'],
    ["location.assign('/10')", '/10'],
    ['window.location.replace( "/11" )', '/11'],
    ['self.location.href = `/12`;', '/12'],
    ['window.top.location.replace("/13")', '/13'],
    ['location["href"] = "/14";', '/14'],
    ['location.href = "https:\\/\\/a.test\\/15?x=1\\u0026y=2\\x26z=3"', 'https://a.test/15?x=1&y=2&z=3'],
    ['if (true) { window.location.href = "/16"; }', '/16'],
    ['setTimeout(function () { location.href = "/17"; }, 1500);', '/17'],
    ['setTimeout(() => location.replace("/18"), 0);', '/18'],
    ['(function(){ location.href = "/19"; })();', '/19'],
    ['!function(){ location.href = "/20" }()', '/20'],
    ['window.onload = function() { location.href = "/21"; };', '/21'],
    ['document.addEventListener("DOMContentLoaded", function () { location.href = "/22"; });', '/22'],
    ['function go() { location.href = "/23"; }\ngo();', '/23'],
    ['var go = function () { location.href = "/24"; }; go();', '/24'],
    ['$(function(){ window.location = "/25"; });', '/25'],
    ['location.href = "/26"\nvar x = 1', '/26'],
    ['window.addEventListener("load", () => location.replace("/27"));', '/27'],
    ['requestAnimationFrame(() => (location.href = "/28"));', '/28'],
  ])('follows %s', (js, target) => {
    expect(literal(js)).toEqual([target]);
  });

  it.each([
    'location.href = base + "/x";',
    'location.href = url;',
    'window.location = getTarget();',
    'location.replace(dest)',
    'location.href = `/x/${id}`;',
    'location.href = "/a" + q;',
    'location.search = "?a=1";',
    'document.forms[0].submit();',
    "window.open(url, '_self')",
    'location.href = "/a".replace("a", "b");',
  ])('flags %s as script navigation without a literal', (js) => {
    const result = findScriptRedirects([js]);
    expect(result.literals).toEqual([]);
    expect(result.nonLiteral).toBe(true);
  });

  it.each([
    'if (location.href == "/x") {}',
    'var here = location.href;',
    'location.reload();',
    'location.hash = "#top";',
    'obj.location = "/not-the-page";',
    'var mylocation = "/x";',
    'config = { location: "/x" };',
    '// location.href = "/commented";',
    '/* location.href = "/block-commented"; */',
    'var s = "location.href = \'/in-a-string\'";',
    'function goCart() { location.href = "/cart"; }',
    'button.addEventListener("click", function () { location.href = "/clicked"; });',
    'el.onclick = () => { window.location = "/clicked"; };',
    'button.addEventListener("click", () => location.href = "/arrow-click");',
    'items.forEach(i => i.onclick = () => location.assign("/x"));',
    'var o = { go() { location.href = "/method"; } };',
  ])('ignores %s', (js) => {
    expect(findScriptRedirects([js])).toEqual({ literals: [], nonLiteral: false });
  });

  it('sees a function defined in one script and called from another (or from body onload)', () => {
    expect(findScriptRedirects(['function redirect() { location.replace("/x"); }', 'redirect();']).literals).toEqual(['/x']);
    expect(findScriptRedirects(['function redirect() { location.replace("/y"); }', 'redirect()']).literals).toEqual(['/y']);
  });

  it('lists literal targets in source order', () => {
    expect(literal('if (a) { location.href = "/first"; } else { location.href = "/second"; }')).toEqual(['/first', '/second']);
  });

  it('strips comments without touching strings or regexes', () => {
    expect(stripJsComments('a = "//not a comment"; // gone\nb = /\\/\\//g; /* x */ c')).toBe(
      'a = "//not a comment";  \nb = /\\/\\//g;   c',
    );
  });

  it('reads string literals with escapes, refusing templates with substitutions', () => {
    expect(readStringLiteral('"a\\"b\\\\c\\u{1F600}"', 0)?.value).toBe('a"b\\c\u{1F600}');
    expect(readStringLiteral("'line\\\ncontinued'", 0)?.value).toBe('linecontinued');
    expect(readStringLiteral('`a${b}`', 0)).toBeNull();
    expect(readStringLiteral('"unterminated', 0)).toBeNull();
    expect(readStringLiteral('"new\nline"', 0)).toBeNull();
    expect(readStringLiteral('x', 0)).toBeNull();
  });
});

describe('detectBotWall', () => {
  const page = (title: string, body = ''): string =>
    `<html><head><title>${title}</title></head><body>${body}${'<p>shop content</p>'.repeat(1000)}</body></html>`;

  it('always calls 429 and 403 a bot wall', () => {
    expect(detectBotWall(429, {}, null, null)).toBe(true);
    expect(detectBotWall(403, {}, null, null)).toBe(true);
  });

  it('recognises challenge headers', () => {
    expect(detectBotWall(503, { 'cf-mitigated': 'challenge' }, null, null)).toBe(true);
    expect(detectBotWall(202, { 'x-amzn-waf-action': 'challenge' }, null, null)).toBe(true);
    expect(detectBotWall(405, { 'x-amzn-waf-action': 'captcha' }, null, null)).toBe(true);
    expect(detectBotWall(200, { 'x-vercel-mitigated': 'challenge' }, null, null)).toBe(true);
  });

  it.each([
    ['Cloudflare', 503, 'Just a moment...', '<script>window._cf_chl_opt={cType:"managed"}</script>'],
    ['Cloudflare (ellipsis title only)', 200, 'Just a moment\u2026', ''],
    ['Cloudflare attention', 200, 'Attention Required! | Cloudflare', ''],
    ['DataDome', 200, 'shop.test', '<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>'],
    ['PerimeterX', 200, 'Access to this page has been denied', '<div id="px-captcha"></div>'],
    ['Akamai', 200, 'Access Denied', "You don't have permission. Reference #18.abcd.1700000000.1 https://errors.edgesuite.net/18.abcd"],
    ['Imperva', 200, '', '<iframe src="/_Incapsula_Resource?SWUDNSAI=31"></iframe>'],
    ['hCaptcha page', 200, 'Security check', '<script src="https://hcaptcha.com/1/api.js"></script><div class="h-captcha"></div>'],
    ['reCAPTCHA page', 200, 'Robot Check', '<script src="https://www.google.com/recaptcha/api.js"></script>'],
  ])('recognises a %s challenge page', (_vendor, status, title, body) => {
    const html = `<html><head><title>${title}</title></head><body>${body}</body></html>`;
    expect(detectBotWall(status, {}, html, title === '' ? null : title)).toBe(true);
  });

  it('recognises a bare captcha page with a bland title', () => {
    const html = '<title>shop.test</title><div class="g-recaptcha" data-sitekey="x"></div>';
    expect(detectBotWall(200, {}, html, 'shop.test')).toBe(true);
  });

  it('does not flag ordinary pages that merely use these vendors', () => {
    expect(detectBotWall(200, {}, page('Running shoes', '<script src="https://js.datadome.co/tags.js"></script>'), 'Running shoes')).toBe(
      false,
    );
    expect(
      detectBotWall(200, {}, page('Contact us', '<script src="https://www.google.com/recaptcha/api.js"></script>'), 'Contact us'),
    ).toBe(false);
    expect(
      detectBotWall(
        200,
        { server: 'cloudflare', 'cf-ray': '1' },
        page('Home', '<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>'),
        'Home',
      ),
    ).toBe(false);
    expect(detectBotWall(200, {}, page('Access Denied'), 'Access Denied')).toBe(false);
    expect(detectBotWall(503, {}, page('Down for maintenance'), 'Down for maintenance')).toBe(false);
    expect(detectBotWall(404, {}, null, null)).toBe(false);
  });
});

describe('readAvailability', () => {
  const avail = (html: string) => readAvailability(scanHtml(html));
  const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

  it.each([
    ['https://schema.org/OutOfStock', 'out_of_stock'],
    ['http://schema.org/SoldOut', 'out_of_stock'],
    ['Discontinued', 'out_of_stock'],
    ['schema:InStock', 'in_stock'],
    ['https://schema.org/LimitedAvailability', 'in_stock'],
    ['PreOrder', 'in_stock'],
    ['OnlineOnly', 'in_stock'],
    ['InStoreOnly', 'in_stock'],
    ['BackOrder', 'in_stock'],
    ['something else', null],
  ])('maps JSON-LD availability %s', (value, expected) => {
    expect(avail(ld(`{"@context":"https://schema.org","@type":"Product","offers":{"@type":"Offer","availability":"${value}"}}`))).toBe(
      expected,
    );
  });

  it('finds availability in @graph, offer arrays and {"@id"} objects', () => {
    expect(
      avail(ld('{"@graph":[{"@type":"WebPage"},{"@type":"Product","offers":[{"availability":{"@id":"http://schema.org/OutOfStock"}}]}]}')),
    ).toBe('out_of_stock');
    expect(
      avail(
        ld('[{"@type":"Product","offers":{"@type":"AggregateOffer","offers":[{"availability":"OutOfStock"},{"availability":"InStock"}]}}]'),
      ),
    ).toBe('in_stock');
  });

  it('tolerates CDATA wrappers, trailing semicolons and broken JSON', () => {
    expect(avail(ld('/*<![CDATA[*/{"offers":{"availability":"https://schema.org/SoldOut"}}/*]]>*/'))).toBe('out_of_stock');
    expect(avail(ld('{"offers":{"availability":"https://schema.org/OutOfStock"}};'))).toBe('out_of_stock');
    expect(avail(ld('{"name":"broken "quote", "offers":{"availability":"https://schema.org/OutOfStock"}'))).toBe('out_of_stock');
  });

  it('reads microdata href/content/text', () => {
    expect(
      avail(
        '<div itemscope itemtype="https://schema.org/Product"><link itemprop="availability" href="https://schema.org/OutOfStock"></div>',
      ),
    ).toBe('out_of_stock');
    expect(avail('<meta itemprop="availability" content="InStock">')).toBe('in_stock');
    expect(avail('<span itemprop="availability">Out of stock</span>')).toBe('out_of_stock');
  });

  it('is null when the page declares nothing', () => {
    expect(avail('<title>Home</title>')).toBeNull();
    expect(avail(ld('{"@type":"Organization"}'))).toBeNull();
  });
});

describe('decodeLocation', () => {
  it('reads latin1-decoded UTF-8 bytes back as UTF-8, leaving other text alone', () => {
    expect(decodeLocation(Buffer.from('/caf\u00e9?q=\u00fc', 'utf8').toString('latin1'))).toBe('/caf\u00e9?q=\u00fc');
    expect(decodeLocation('/plain')).toBe('/plain');
    expect(decodeLocation('/latin1-\u00e9-only')).toBe('/latin1-\u00e9-only');
  });
});

describe('readers never throw on hostile input', () => {
  const htmlish = fc.stringMatching(/^[<>a-z ="'/!\-;:.(){}[\]`$\\\n]{0,300}$/);

  it('scanHtml, findScriptRedirects, parseRefresh and readAvailability accept anything', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), htmlish), (text) => {
        const scan = scanHtml(text);
        findScriptRedirects([text, ...scan.inlineScripts]);
        parseRefresh(text);
        readAvailability(scan);
        detectBotWall(200, {}, text, scan.title);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds a literal redirect wherever it sits among harmless statements', () => {
    const statement = fc.constantFrom('var a = 1;', 'if (x) { y(); }', 'f("location");', '/* c */', 'var re = /[/]/g;', 'z = `t`;');
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 6 }), fc.array(statement, { maxLength: 6 }), (before, after) => {
        const js = [...before, 'location.replace("/target");', ...after].join('\n');
        expect(findScriptRedirects([js]).literals).toEqual(['/target']);
      }),
    );
  });
});
