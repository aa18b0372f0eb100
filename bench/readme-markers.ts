// Every benchmark's `--write`: replaces the block between `<!-- <name>:begin -->` and `<!-- <name>:end -->` in
// bench/README.md with the new figures.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function updateReadme(name: string, block: string): void {
  const readme = fileURLToPath(new URL('./README.md', import.meta.url));
  const text = readFileSync(readme, 'utf8');
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`bench/README.md has no ${name} markers`);
  writeFileSync(readme, `${text.slice(0, from + begin.length)}\n${block}\n${text.slice(to)}`);
}
