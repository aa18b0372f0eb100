// listen + graceful shutdown: stop taking requests, let in-flight ones finish, then close the database.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from './config.js';
import { createContext, type AppContext } from './context.js';
import { buildApp } from './app.js';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  close(): Promise<void>;
}

type Env = Record<string, string | undefined>;

export async function startServer(env: Env, config: Config = loadConfig(env)): Promise<RunningServer> {
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  ctx.warn = (message, err) => app.log.warn({ err }, message);
  try {
    await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => `listening on ${address}` });
  } catch (err) {
    await ctx.close();
    throw err;
  }
  ctx.startBackground();
  // After `listening on`: start-up stays short, and the first browser check does not pay for loading Playwright.
  setImmediate(() => ctx.browser.warm());
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // PORT=0: links in reports must carry the port actually chosen.
  ctx.listeningOn(port, env);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    app,
    ctx,
    url,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await ctx.close();
      })()),
  };
}
