// `trackcheck worker`: runs queued checks in its own process (no HTTP), until SIGINT/SIGTERM.
import { loadConfig } from '../config.js';
import { createContext } from '../context.js';

export async function workerCommand(_args: string[], env: Record<string, string | undefined>): Promise<number> {
  const config = loadConfig(env);
  if (config.workerConcurrency <= 0) {
    console.error('worker: TRACKCHECK_WORKER_CONCURRENCY is 0; nothing to run');
    return 2;
  }
  const ctx = await createContext(config, { warn: (message, err) => console.warn(message, err ?? '') });
  ctx.startBackground();
  console.log(`worker ${ctx.worker.id} running ${config.workerConcurrency} checks at once (${config.databaseUrl.split(':')[0]})`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log('stopping: finishing running checks');
  await ctx.close();
  return 0;
}
