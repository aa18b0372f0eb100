// The sign-in email: a plain-text and an HTML part saying which trackcheck it comes from, the one-time link, and when
// it expires. Sent through the operator's SMTP server (TRACKCHECK_SMTP_URL) from TRACKCHECK_ALERT_FROM. The recipient
// is a normalised plain address (email-signin.ts); nodemailer builds every header, so nothing a visitor types becomes
// one. Sent through services/smtp.ts, which loads nodemailer with the first mail.
import { sendSmtpMail } from '../services/smtp.js';
import { escapeHtml } from './html.js';
import { humanUtc } from './time.js';

export interface SignInMailContent {
  url: string;
  expiresAt: Date;
  /** The instance the link signs in to, named in the mail. */
  publicUrl: string;
}

export interface SignInMessage {
  subject: string;
  text: string;
  html: string;
}

export interface SignInMail {
  /** Resolves once the SMTP server accepted the mail; rejects with a message naming no address otherwise. */
  send(to: string, content: SignInMailContent): Promise<void>;
}

const SMTP_TIMEOUT_MS = 10_000;

function buildSignInMessage(content: SignInMailContent, nowMs: number): SignInMessage {
  const instance = new URL(content.publicUrl).host;
  const minutes = Math.max(1, Math.round((content.expiresAt.getTime() - nowMs) / 60_000));
  const expiry = `It works once and expires in ${minutes} minutes (at ${humanUtc(content.expiresAt)}).`;
  const ignore = 'If you did not ask for it, ignore this email: nobody can sign in without the link, and nothing was changed.';
  const subject = `Your sign-in link for trackcheck (${instance})`;
  const text = [
    `Someone (hopefully you) asked to sign in to trackcheck at ${content.publicUrl} with this email address.`,
    '',
    'Open this link to sign in:',
    content.url,
    '',
    expiry,
    ignore,
    '',
    '-- ',
    `trackcheck at ${instance}`,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.4">',
    `<h2 style="margin:0 0 .5em">Sign in to trackcheck at ${escapeHtml(instance)}</h2>`,
    `<p>Someone (hopefully you) asked to sign in to trackcheck at <a href="${escapeHtml(content.publicUrl)}">${escapeHtml(content.publicUrl)}</a> with this email address.</p>`,
    `<p><a href="${escapeHtml(content.url)}" style="display:inline-block;padding:.6em 1.2em;background:#0b5cad;color:#fff;border-radius:6px;text-decoration:none;font-weight:bold">Sign in to trackcheck</a></p>`,
    `<p>${escapeHtml(expiry)}</p>`,
    `<p style="color:#666;font-size:small">${escapeHtml(ignore)}<br>If the button does not work, copy this link into your browser: ${escapeHtml(content.url)}</p>`,
    '</body></html>',
  ].join('');
  return { subject, text, html };
}

export function createSmtpSignInMail(opts: { smtpUrl: string; from: string; now(): number }): SignInMail {
  return {
    async send(to, content) {
      const message = buildSignInMessage(content, opts.now());
      // RFC 3834: no out-of-office replies to this. Failures name codes only, never the address (smtp.ts).
      await sendSmtpMail(opts.smtpUrl, SMTP_TIMEOUT_MS, {
        from: opts.from,
        to,
        ...message,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    },
  };
}
