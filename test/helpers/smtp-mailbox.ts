// A real SMTP server on 127.0.0.1 (smtp-server) that keeps every mail it accepts, for tests of what the service sends.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string | null;
  to: string[];
  raw: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for TRACKCHECK_SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves once `count` mails have arrived in all (polls; fails after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** `rejectRecipient`: every RCPT TO is refused with 550, as a server without that mailbox does. */
export async function startMailbox(options: { rejectRecipient?: boolean } = {}): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offer, so the client does not try to upgrade to a self-signed cert.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(options.rejectRecipient === true ? Object.assign(new Error('no such mailbox'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address;
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} mails, ${mails.length} arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return mails;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
