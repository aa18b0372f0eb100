#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
