// The progress bar of `trackcheck batch`: redrawn in place on a terminal (stderr), nothing at all on a pipe or a
// file, so `trackcheck batch links.txt > out.csv` and CI logs stay clean.

export interface ProgressState {
  /** Links with a verdict or a failure. */
  done: number;
  total: number;
  /** Links handed to the service so far. */
  submitted: number;
  notTracking?: number;
  note?: string;
}

export interface Progress {
  update(state: ProgressState): void;
  /** Prints a line above the bar (TTY only). */
  log(line: string): void;
  finish(): void;
}

const WIDTH = 24;

export function renderBar(state: ProgressState, columns = 80): string {
  const ratio = state.total === 0 ? 1 : Math.min(1, state.done / state.total);
  const filled = Math.round(ratio * WIDTH);
  const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
  const parts = [`${bar} ${state.done}/${state.total} checked ${String(Math.floor(ratio * 100)).padStart(3)}%`];
  if (state.submitted < state.total) parts.push(`${state.submitted} submitted`);
  if (state.notTracking) parts.push(`${state.notTracking} not tracking`);
  if (state.note) parts.push(state.note);
  const text = parts.join(' · ');
  return text.length > columns - 1 ? text.slice(0, Math.max(0, columns - 2)) + '…' : text;
}

export function createProgress(stream: { write(text: string): unknown; isTTY?: boolean; columns?: number }): Progress {
  if (stream.isTTY !== true) return { update: () => undefined, log: () => undefined, finish: () => undefined };
  let last: ProgressState | null = null;
  let drawn = false;
  const draw = () => {
    if (last === null) return;
    // A pseudo-terminal without a size reports 0 columns.
    const columns = stream.columns !== undefined && stream.columns >= 40 ? stream.columns : 80;
    stream.write(`\r\x1b[2K${renderBar(last, columns)}`);
    drawn = true;
  };
  return {
    update(state) {
      last = state;
      draw();
    },
    log(line) {
      stream.write(`${drawn ? '\r\x1b[2K' : ''}${line}\n`);
      draw();
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
