// Email delivery through the operator's SMTP server (TRACKCHECK_SMTP_URL). That server is configuration,
// not user input, so it is not subject to the network guard; the user only chooses the recipient, which
// channel.ts restricts to one plain address.
import { isSmtpUrl, sendSmtpMail, SmtpSendError } from '../smtp.js';
import { buildEmailMessage } from './email-message.js';
import type { Alert, AttemptResult } from './types.js';

export interface EmailSendOptions {
  smtpUrl: string | null;
  alertFrom: string;
  timeoutMs: number;
}

export async function sendAlertEmail(alert: Alert, to: string, options: EmailSendOptions): Promise<AttemptResult> {
  if (options.smtpUrl === null || !isSmtpUrl(options.smtpUrl)) {
    return { ok: false, error: 'email is not configured on this server', retryable: false };
  }
  const message = buildEmailMessage(alert);
  try {
    await sendSmtpMail(options.smtpUrl, options.timeoutMs, {
      from: options.alertFrom,
      to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    return { ok: true, detail: 'accepted by the SMTP server' };
  } catch (err) {
    if (!(err instanceof SmtpSendError)) throw err;
    return { ok: false, error: err.message, retryable: err.retryable };
  }
}
