// The check's verdict as the wire carries it (CONTRACT.md section 7). The engine decides it
// (src/checker/analysis/verdict.ts); the API, the CSV files and the store name it with these words.

export const VERDICTS = ['will_track', 'will_not_track', 'could_not_verify', 'no_tracking_found'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** A stored or transmitted verdict, checked; null for anything else (an empty cell, an unfinished check). */
export function parseVerdict(value: string | null | undefined): Verdict | null {
  return (VERDICTS as readonly unknown[]).includes(value) ? (value as Verdict) : null;
}
