// Mail through the operator's SMTP server (TRACKCHECK_SMTP_URL), for alert email and sign-in links alike: one
// transport per message, every wait bounded, failures described from codes only (server replies can quote the
// message or the account). nodemailer is loaded with the first mail: start-up does not pay for it.

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

export interface SmtpMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Why a mail did not go out; `retryable` is false when the same answer would come tomorrow. */
export class SmtpSendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SmtpSendError';
  }
}

interface SmtpFailure {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  permanent?: unknown;
}

function describeSmtpError(err: unknown): SmtpSendError {
  const e: SmtpFailure = typeof err === 'object' && err !== null ? (err as SmtpFailure) : {};
  // A permanent SMTP rejection (5xx but 503) will be the same answer tomorrow.
  const retryable = e.permanent !== true;
  if (typeof e.responseCode === 'number') return new SmtpSendError(`SMTP server answered ${e.responseCode}`, retryable);
  const code = typeof e.originalCode === 'string' ? e.originalCode : typeof e.code === 'string' ? e.code : null;
  if (code === 'ABORT_ERR' || code === 'ETIMEDOUT') return new SmtpSendError('SMTP server timed out', retryable);
  if (code === 'ECONNREFUSED') return new SmtpSendError('SMTP connection refused', retryable);
  return new SmtpSendError(code === null ? 'SMTP send failed' : `SMTP send failed (${code})`, retryable);
}

/** Sends one mail or throws SmtpSendError; the SMTP server must accept the recipient. */
export async function sendSmtpMail(smtpUrl: string, timeoutMs: number, mail: SmtpMail): Promise<void> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  let rejected: boolean;
  try {
    const info = await transport.sendMail({ ...mail, signal: AbortSignal.timeout(timeoutMs) });
    rejected = info.rejected.length > 0;
  } catch (err) {
    throw describeSmtpError(err);
  } finally {
    transport.close();
  }
  if (rejected) throw new SmtpSendError('SMTP server rejected the recipient', false);
}
