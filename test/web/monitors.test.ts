// The monitor pages over app.inject(), through the monitors service's public interface only: sign-in required,
// the new-monitor form (CSRF, refusals shown in the form with the input kept), the monitor page's actions
// (run now, pause, resume, settings, channels, delete with a confirm step), another user's monitor as a 404 page,
// and "Monitor this link" on a report.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReportWeb, type ReportWeb } from './report-fixtures.js';
import { Browser, csrfOf, signInWithLink } from './signin-helpers.js';

const HOOK_HOST = 'hooks.monitor-test.example';

describe.each(DATABASES)('monitor pages on $name', (database) => {
  let fixture: ReportWeb;
  let t: TestApp;
  let alice: Browser;

  beforeAll(async () => {
    fixture = await startReportWeb();
  });
  afterAll(async () => {
    await fixture.web.close();
  });
  beforeEach(async () => {
    t = await startTestApp({ database, env: { TRACKCHECK_RESOLVE: `${fixture.web.resolveSpec},${HOOK_HOST}=127.0.0.1` } });
    alice = new Browser(t.app);
    await signInWithLink(alice, t.dataDir, 'alice');
  });
  afterEach(async () => {
    await t.close();
  });

  /** Creates a monitor through the form on /monitors; returns its page's path. */
  async function createMonitor(browser: Browser, fields: Record<string, string>): Promise<string> {
    const res = await browser.submit('/monitors', '/monitors', { check_type: 'link', interval_minutes: '1440', ...fields });
    expect(res.statusCode, res.body.slice(0, 600)).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/monitors\/[^/?]+$/);
    return location;
  }

  it('sends signed-out visitors to sign in, and refuses their posts', async () => {
    const anonymous = new Browser(t.app);
    const page = await anonymous.get('/monitors');
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/auth/signin?next=%2Fmonitors');
    const post = await anonymous.post('/monitors', { url: fixture.trackingLink });
    expect(post.statusCode).toBe(401);
    expect(post.body).toContain('Sign in');
  });

  it('the navigation links to Monitors; a new monitor is listed with its state, and its page shows it', async () => {
    const empty = await alice.get('/monitors');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('<a href="/monitors" aria-current="page">Monitors</a>');
    expect(empty.body).toContain('No monitors yet.');

    const path = await createMonitor(alice, {
      url: fixture.trackingLink,
      name: 'Spring <banner>',
      interval_minutes: '60',
      webhook_url: `https://${HOOK_HOST}/in`,
      webhook_secret: 'whsec_very_secret_1',
      email: '',
    });
    const page = await alice.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Spring &lt;banner&gt;</h1>');
    expect(page.body).toMatch(
      /<span class="mstate ms-(pending|healthy|broken|unknown)"><span aria-hidden="true">.<\/span> (Pending|Healthy|Broken|Unknown)<\/span>/,
    );
    expect(page.body).toContain('every hour');
    expect(page.body).toContain(`Webhook https://${HOOK_HOST}/in (signed)`);
    expect(page.body).not.toContain('whsec_very_secret_1');
    expect(page.body).toContain('<h2 id="history-h">History</h2>');

    const list = await alice.get('/monitors');
    expect(list.body).toContain(`<a href="${path}">${fixture.trackingLink.replace(/&/g, '&amp;')}</a>`);
    expect(list.body).toContain('<strong>Spring &lt;banner&gt;</strong>');
    expect(list.body).toMatch(/class="mstate ms-\w+"/);
  });

  it('shows a refusal in the form in plain words, keeps what was typed, and creates nothing', async () => {
    const badUrl = await alice.submit('/monitors', '/monitors', {
      url: 'ftp://files.example/x',
      name: 'Kept name',
      interval_minutes: '1440',
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.body).toMatch(/<p class="error" id="monitor-error" role="alert">[^<]+<\/p>/);
    expect(badUrl.body).toContain('value="ftp://files.example/x"');
    expect(badUrl.body).toContain('value="Kept name"');

    const badInterval = await alice.submit('/monitors', '/monitors', { url: fixture.trackingLink, interval_minutes: '5' });
    expect(badInterval.statusCode).toBe(400);
    expect(badInterval.body).toMatch(/role="alert">[^<]*interval[^<]*<\/p>/i);

    const privateHook = await alice.submit('/monitors', '/monitors', { url: fixture.trackingLink, slack_url: 'http://127.0.0.1/hook' });
    expect(privateHook.statusCode).toBe(400);
    const message = /role="alert">([^<]*)<\/p>/.exec(privateHook.body)?.[1] ?? '';
    expect(message).not.toMatch(/channels\[\d\]/);
    expect(privateHook.body).toContain('value="http://127.0.0.1/hook"');

    const list = await alice.get('/monitors');
    expect(list.body).toContain('No monitors yet.');
  });

  it('refuses a post without the form token, and changes nothing', async () => {
    const res = await alice.post('/monitors', { url: fixture.trackingLink });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('could not be verified');
    expect((await alice.get('/monitors')).body).toContain('No monitors yet.');
  });

  it('runs now, pauses, resumes, saves settings and channels, and deletes after asking', async () => {
    const path = await createMonitor(alice, { url: fixture.trackingLink });
    const act = async (action: string, fields: Record<string, string> = {}) => {
      const page = await alice.get(path);
      return alice.post(`${path}/${action}`, { _csrf: csrfOf(page.body), ...fields });
    };

    const run = await act('run');
    expect(run.statusCode).toBe(303);
    expect(run.headers.location).toBe(`${path}?notice=run`);
    expect((await alice.get(String(run.headers.location))).body).toContain('A run is queued');

    expect((await act('pause')).headers.location).toBe(`${path}?notice=paused`);
    const paused = await alice.get(path);
    expect(paused.body).toContain('<strong>(paused)</strong>');
    expect(paused.body).toMatch(/<button type="submit" class="secondary">Resume<\/button>/);
    expect((await act('resume')).headers.location).toBe(`${path}?notice=resumed`);
    expect((await alice.get(path)).body).toMatch(/<button type="submit" class="secondary">Pause<\/button>/);

    expect((await act('settings', { name: 'Renamed', interval_minutes: '10080' })).statusCode).toBe(303);
    const renamed = await alice.get(path);
    expect(renamed.body).toContain('<h1>Renamed</h1>');
    expect(renamed.body).toContain('every week');
    const badSettings = await act('settings', { name: 'x'.repeat(101), interval_minutes: '1440' });
    expect(badSettings.statusCode).toBe(400);
    expect(badSettings.body).toMatch(/<p class="error" id="settings-error" role="alert">/);

    expect((await act('channels', { slack_url: `https://${HOOK_HOST}/services/T1/B2/c3`, email: '' })).statusCode).toBe(303);
    const withSlack = await alice.get(path);
    // Outside the form that edits it, a Slack webhook (whose path is a credential) shows as its host only.
    expect(withSlack.body).toContain(`<dt>Alerts</dt><dd>Slack (${HOOK_HOST})</dd>`);
    const badChannel = await act('channels', { webhook_url: 'javascript:alert(1)' });
    expect(badChannel.statusCode).toBe(400);
    expect(badChannel.body).toMatch(/<p class="error" id="channels-error" role="alert">[^<]*javascript[^<]*<\/p>/);
    expect(badChannel.body).not.toMatch(/role="alert">[^<]*channels\[/);
    expect(badChannel.body).toContain('value="javascript:alert(1)"');

    const confirm = await alice.get(`${path}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Delete this monitor?');
    const deleted = await alice.post(`${path}/delete`, { _csrf: csrfOf(confirm.body) });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe('/monitors?notice=deleted');
    expect((await alice.get('/monitors?notice=deleted')).body).toContain('The monitor was deleted.');
    expect((await alice.get(path)).statusCode).toBe(404);
  });

  it("shows another user's monitor as a 404 page and lets them change nothing", async () => {
    const path = await createMonitor(alice, { url: fixture.trackingLink, name: 'Alice only' });
    const bob = new Browser(t.app);
    await signInWithLink(bob, t.dataDir, 'bob');
    const seen = await bob.get(path);
    expect(seen.statusCode).toBe(404);
    expect(seen.body).toContain('Monitor not found');
    expect(seen.body).not.toContain('Alice only');
    expect((await bob.get(`${path}/delete`)).statusCode).toBe(404);
    const token = csrfOf((await bob.get('/monitors')).body);
    for (const action of ['delete', 'pause', 'run', 'settings', 'channels']) {
      expect((await bob.post(`${path}/${action}`, { _csrf: token, name: 'Bob was here' })).statusCode, action).toBe(404);
    }
    expect((await bob.get('/monitors')).body).toContain('No monitors yet.');
    const still = await alice.get(path);
    expect(still.statusCode).toBe(200);
    expect(still.body).toContain('<h1>Alice only</h1>');
    expect(still.body).not.toContain('(paused)');
    expect((await alice.get('/monitors/not-a-monitor-id')).statusCode).toBe(404);
  });

  it('"Monitor this link" on a report makes a monitor of its link and check type; signed out it leads to sign-in', async () => {
    const checked = await alice.submit('/', '/', { url: fixture.trackingLink, check_type: 'link' });
    expect(checked.statusCode).toBe(303);
    const reportPath = String(checked.headers.location);
    const report = await alice.get(reportPath);
    expect(report.body).toContain('<form class="inline" method="post" action="/monitors">');
    const res = await alice.post('/monitors', { _csrf: csrfOf(report.body), url: fixture.trackingLink, check_type: 'link' });
    expect(res.statusCode).toBe(303);
    const page = await alice.get(String(res.headers.location));
    expect(page.body).toContain(`<h1>${fixture.trackingLink.replace(/&/g, '&amp;')}</h1>`);
    expect(page.body).toContain('link, every day');

    const anonymous = await new Browser(t.app).get(reportPath);
    expect(anonymous.body).toContain(
      `<a class="button secondary" href="/auth/signin?next=${encodeURIComponent(reportPath)}">Monitor this link</a>`,
    );
  });
});
