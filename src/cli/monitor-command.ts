// `trackcheck monitor add|list|show|run|rm`: a user's monitors through a trackcheck service (--server,
// TRACKCHECK_SERVER, default http://127.0.0.1:3000, with TRACKCHECK_API_KEY), CONTRACT.md section 8.
// Exit codes: 0 done (`show`: the monitor is healthy), 1 `show` of a broken monitor, 3 `show` of a monitor that is
// pending or unknown, 2 bad input, a refusal of the service or no service.
import { parseArgs } from 'node:util';
import type { CheckType, MonitorChannelInput, MonitorState, TrackcheckClient } from '../client/index.js';
import { formatMonitor, formatMonitorList, type MonitorFormat } from './monitor-output.js';
import { UsageError, createRemoteClient, describeRemoteFailure, processIo, readToken, resolveServer, type CliIo } from './remote.js';

export const MONITOR_USAGE = `usage: trackcheck monitor <command> [--server <url>] [--format text|json]

  add <url> [--name <text>] [--interval <minutes>] [--check-type link|cmp]
            [--webhook <url> [--secret <text>]] [--slack <url>] [--email <address>]
                      monitor a link: it is checked again every --interval minutes (15 to 10080,
                      default 1440) and each channel is alerted when the answer changes
  list                your monitors, newest first
  show <id>           one monitor and its recent events (--events <n>, default 10)
  run <id>            queue a run now
  rm <id>             delete a monitor (its reports stay readable)

TRACKCHECK_API_KEY is required. Exit codes: 0 done (show: healthy), 1 show: broken,
3 show: pending or unknown, 2 bad input, a refusal of the service or no service.
See docs/monitors.md.`;

const OPTIONS = {
  server: { type: 'string' },
  format: { type: 'string' },
  json: { type: 'boolean' },
  name: { type: 'string' },
  interval: { type: 'string' },
  'check-type': { type: 'string' },
  webhook: { type: 'string' },
  secret: { type: 'string' },
  slack: { type: 'string' },
  email: { type: 'string' },
  events: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const SHOW_EXIT: Record<MonitorState, number> = { healthy: 0, broken: 1, pending: 3, unknown: 3 };
const ADD_ONLY = ['name', 'interval', 'check-type', 'webhook', 'secret', 'slack', 'email'] as const;

function readFormat(values: Values): MonitorFormat {
  if (values.format === undefined) return values.json === true ? 'json' : 'text';
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError('--format must be text or json');
  if (values.json === true && values.format !== 'json') throw new UsageError(`--json and --format ${values.format} cannot be combined`);
  return values.format;
}

function wholeNumber(raw: string, flag: string): number {
  if (!/^\d{1,9}$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number`);
  return Number(raw.trim());
}

function channelsOf(values: Values): MonitorChannelInput[] {
  if (values.secret !== undefined && values.webhook === undefined)
    throw new UsageError('--secret signs a --webhook: give the webhook URL too');
  const channels: MonitorChannelInput[] = [];
  if (values.webhook !== undefined)
    channels.push({ type: 'webhook', url: values.webhook, ...(values.secret === undefined ? {} : { secret: values.secret }) });
  if (values.slack !== undefined) channels.push({ type: 'slack', url: values.slack });
  if (values.email !== undefined) channels.push({ type: 'email', to: values.email });
  return channels;
}

async function add(client: TrackcheckClient, url: string, values: Values, format: MonitorFormat, io: CliIo): Promise<number> {
  const checkType = values['check-type'] ?? 'link';
  if (checkType !== 'link' && checkType !== 'cmp') throw new UsageError('--check-type must be link or cmp');
  const monitor = await client.monitors.create({
    url,
    check_type: checkType as CheckType,
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.interval === undefined ? {} : { interval_minutes: wholeNumber(values.interval, '--interval') }),
    channels: channelsOf(values),
  });
  io.stdout.write(formatMonitor(monitor, null, format));
  return 0;
}

export async function monitorCommand(args: string[], env: Record<string, string | undefined>, io: CliIo = processIo()): Promise<number> {
  let server = '';
  try {
    let parsed;
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const { values, positionals } = parsed;
    const [command, target, ...extra] = positionals;
    if (values.help === true || command === 'help') {
      io.stdout.write(`${MONITOR_USAGE}\n`);
      return 0;
    }
    const arity: Record<string, number> = { add: 1, list: 0, show: 1, run: 1, rm: 1 };
    const wanted = command === undefined ? undefined : arity[command];
    if (wanted === undefined)
      throw new UsageError(
        `${command === undefined ? 'name a command' : `unknown command "${command}"`}: add, list, show, run or rm\n\n${MONITOR_USAGE}`,
      );
    if (wanted === 1 ? target === undefined || extra.length > 0 : target !== undefined) {
      throw new UsageError(
        wanted === 1
          ? `"monitor ${command}" takes one ${command === 'add' ? 'link' : 'monitor id'}`
          : `"monitor ${command}" takes no argument`,
      );
    }
    if (command !== 'add') {
      const stray = ADD_ONLY.find((flag) => values[flag] !== undefined);
      if (stray !== undefined) throw new UsageError(`--${stray} belongs to "monitor add"`);
    }
    if (values.events !== undefined && command !== 'show') throw new UsageError('--events belongs to "monitor show"');
    const format = readFormat(values);
    server = resolveServer(values.server, env);
    const client = createRemoteClient(server, readToken(env, true), io);
    const id = target ?? '';
    switch (command) {
      case 'add':
        return await add(client, id, values, format, io);
      case 'list': {
        const monitors = [];
        for await (const m of client.monitors.iterate()) monitors.push(m);
        io.stdout.write(formatMonitorList(monitors, format));
        return 0;
      }
      case 'show': {
        const limit = values.events === undefined ? 10 : wholeNumber(values.events, '--events');
        if (limit < 1 || limit > 100) throw new UsageError('--events must be 1 to 100');
        const monitor = await client.monitors.get(id);
        const events = await client.monitors.events(id, { limit });
        io.stdout.write(formatMonitor(monitor, events.data, format));
        return SHOW_EXIT[monitor.state];
      }
      case 'run': {
        const monitor = await client.monitors.run(id);
        io.stdout.write(
          format === 'json'
            ? `${JSON.stringify(monitor, null, 2)}\n`
            : `run queued for monitor ${monitor.id} (${monitor.name ?? monitor.url})\n`,
        );
        return 0;
      }
      default: {
        const deleted = await client.monitors.delete(id);
        io.stdout.write(format === 'json' ? `${JSON.stringify(deleted, null, 2)}\n` : `deleted monitor ${deleted.id}\n`);
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`monitor: ${err.message}\n`);
      return 2;
    }
    const failure = describeRemoteFailure(err, server);
    if (failure === null) throw err;
    io.stderr.write(`monitor: ${failure}\n`);
    return 2;
  }
}
