// The installed package's root (the folder holding package.json), found from this module wherever it runs: from
// dist/ (the built service) or from src/ (the test runner). Built files (dist/…) are looked up under it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

export function packageRoot(): string {
  if (root !== null) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('trackcheck: package.json not found above its modules');
    dir = parent;
  }
  root = dir;
  return dir;
}
