// The outputs of `trackcheck batch`: table, JSON and CSV from the service's results.csv rows.
import { describe, expect, it } from 'vitest';
import { formatResults, summarize, toLinkResult, type LinkResult } from '../../src/cli/batch-output.js';
import { parseCsv } from '../../src/lib/csv.js';
import { renderBar } from '../../src/cli/progress.js';

const CSV =
  'url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues\r\n' +
  'https://a.example/1,aaaaaaaaaaaa,completed,will_track,true,100,Awin,https://shop.example/p,200,1,\r\n' +
  'https://b.example/2,bbbbbbbbbbbb,completed,will_not_track,false,38,Awin,"https://shop.example/p?a=1,2",200,2,tracking_parameter_stripped landing_error_status\r\n' +
  "https://c.example/3,cccccccccccc,failed,could_not_verify,,,,'=cmd,,,\r\n";

function results(): LinkResult[] {
  const [header, ...rows] = parseCsv(CSV);
  return rows.map((r, i) => toLinkResult(r, header?.fields ?? [], { url: r.fields[0] ?? '', line: i + 3 }));
}

describe('batch output', () => {
  it('types the CSV cells and undoes the formula guard', () => {
    expect(results()).toEqual([
      {
        line: 3,
        url: 'https://a.example/1',
        slug: 'aaaaaaaaaaaa',
        status: 'completed',
        verdict: 'will_track',
        willTrack: true,
        healthScore: 100,
        network: 'Awin',
        finalUrl: 'https://shop.example/p',
        finalStatus: 200,
        redirectCount: 1,
        criticalIssues: [],
        fields: {},
      },
      {
        line: 4,
        url: 'https://b.example/2',
        slug: 'bbbbbbbbbbbb',
        status: 'completed',
        verdict: 'will_not_track',
        willTrack: false,
        healthScore: 38,
        network: 'Awin',
        finalUrl: 'https://shop.example/p?a=1,2',
        finalStatus: 200,
        redirectCount: 2,
        criticalIssues: ['tracking_parameter_stripped', 'landing_error_status'],
        fields: {},
      },
      {
        line: 5,
        url: 'https://c.example/3',
        slug: 'cccccccccccc',
        status: 'failed',
        verdict: 'could_not_verify',
        willTrack: null,
        healthScore: null,
        network: null,
        finalUrl: '=cmd',
        finalStatus: null,
        redirectCount: null,
        criticalIssues: [],
        fields: {},
      },
    ]);
  });

  it('prints a table with a summary', () => {
    expect(formatResults(results(), 'text')).toBe(
      [
        'VERDICT         SCORE  NETWORK  SLUG          CRITICAL ISSUES                                   URL',
        'WILL TRACK        100  Awin     aaaaaaaaaaaa  -                                                 https://a.example/1',
        'WILL NOT TRACK     38  Awin     bbbbbbbbbbbb  tracking_parameter_stripped,landing_error_status  https://b.example/2',
        'FAILED              -  -        cccccccccccc  -                                                 https://c.example/3',
        '',
        '3 links: 1 will track, 1 will not track, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('prints JSON and re-emits the CSV with the same columns (formula guard restored)', () => {
    expect(JSON.parse(formatResults(results(), 'json'))).toEqual(results());
    expect(formatResults(results(), 'csv')).toBe(CSV);
    expect(summarize(results().slice(0, 1))).toBe('1 link: 1 will track, 0 will not track, 0 failed');
  });

  it('writes a Markdown table with the summary', () => {
    expect(formatResults(results(), 'markdown')).toBe(
      [
        '**1 of 3 links will track**',
        '',
        '| Line | Verdict | Score | Network | Critical issues | URL | Slug |',
        '|---:|---|---:|---|---|---|---|',
        '| 3 | **Will track** | 100 | Awin |  | `https://a.example/1` | `aaaaaaaaaaaa` |',
        '| 4 | **Will not track** | 38 | Awin | `tracking_parameter_stripped` `landing_error_status` | `https://b.example/2` | `bbbbbbbbbbbb` |',
        '| 5 | **Check failed** |  |  |  | `https://c.example/3` | `cccccccccccc` |',
        '',
        '3 links: 1 will track, 1 will not track, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('appends the input’s own columns: CSV after the standard columns (input_<name> on a clash), JSON as fields, Markdown escaped', () => {
    const withFields = results().map((r, i) => ({
      ...r,
      fields: { campaign: ['Spring, shoes', 'Sale | 50%', '=x'][i] ?? '', status: ['live', 'off', ''][i] ?? '' },
    }));
    const csv = formatResults(withFields, 'csv', ['campaign', 'status']).split('\r\n');
    expect(csv[0]).toBe(
      'url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues,campaign,input_status',
    );
    expect(csv[1]).toMatch(/,"Spring, shoes",live$/);
    expect(csv[3]).toMatch(/,'=x,$/);
    expect(JSON.parse(formatResults(withFields, 'json', ['campaign', 'status']))[1].fields).toEqual({
      campaign: 'Sale | 50%',
      status: 'off',
    });
    const md = formatResults(withFields, 'markdown', ['campaign', 'status']).split('\n');
    expect(md[2]).toBe('| Line | Verdict | Score | Network | Critical issues | URL | Slug | campaign | status |');
    expect(md[5]).toMatch(/\| Sale \\\| 50% \| off \|$/);
  });

  it('renders a progress bar that fits the terminal', () => {
    expect(renderBar({ done: 250, total: 1000, submitted: 500 })).toBe('██████░░░░░░░░░░░░░░░░░░ 250/1000 checked  25% · 500 submitted');
    expect(renderBar({ done: 3, total: 3, submitted: 3 })).toBe('████████████████████████ 3/3 checked 100%');
    expect(renderBar({ done: 0, total: 10, submitted: 10, note: 'waiting' }, 30)).toHaveLength(29);
  });
});
