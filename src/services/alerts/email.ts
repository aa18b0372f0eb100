// Email delivery through the operator's SMTP server (TRACKCHECK_SMTP_URL). That server is configuration,
// not user input, so it is not subject to the network guard; the user only chooses the recipient, which
// channel.ts restricts to one plain address.
import { createTransport } from 'nodemailer';
import { buildEmailMessage } from './email-message.js';
import type { Alert, AttemptResult } from './types.js';

export interface EmailSendOptions {
  smtpUrl: string | null;
  alertFrom: string;
  timeoutMs: number;
}

/** Accepts exactly the schemes the contract names. */
export function isSmtpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `trackcheck@<public URL host>`: the contract's default for TRACKCHECK_ALERT_FROM. */
export function defaultAlertFrom(publicUrl: string): string {
  return `trackcheck@${new URL(publicUrl).hostname.replace(/^\[|\]$/g, '')}`;
}

interface SmtpFailure {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  permanent?: unknown;
}

/** Built from codes only: server replies can quote the message or the account. */
function describeSmtpError(err: unknown): { error: string; retryable: boolean } {
  const e: SmtpFailure = typeof err === 'object' && err !== null ? (err as SmtpFailure) : {};
  // A permanent SMTP rejection (5xx but 503) will be the same answer tomorrow.
  const retryable = e.permanent !== true;
  if (typeof e.responseCode === 'number') return { error: `SMTP server answered ${e.responseCode}`, retryable };
  const code = typeof e.originalCode === 'string' ? e.originalCode : typeof e.code === 'string' ? e.code : null;
  if (code === 'ABORT_ERR' || code === 'ETIMEDOUT') return { error: 'SMTP server timed out', retryable };
  if (code === 'ECONNREFUSED') return { error: 'SMTP connection refused', retryable };
  return { error: code === null ? 'SMTP send failed' : `SMTP send failed (${code})`, retryable };
}

export async function sendAlertEmail(alert: Alert, to: string, options: EmailSendOptions): Promise<AttemptResult> {
  if (options.smtpUrl === null || !isSmtpUrl(options.smtpUrl)) {
    return { ok: false, error: 'email is not configured on this server', retryable: false };
  }
  const message = buildEmailMessage(alert);
  const transport = createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  try {
    const info = await transport.sendMail({
      from: options.alertFrom,
      to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (info.rejected.length > 0) return { ok: false, error: 'SMTP server rejected the recipient', retryable: false };
    return { ok: true, detail: 'accepted by the SMTP server' };
  } catch (err) {
    return { ok: false, ...describeSmtpError(err) };
  } finally {
    transport.close();
  }
}
