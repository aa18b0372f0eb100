// The shapes alert delivery works with (CONTRACT.md section 8). Times inside persisted shapes are ISO-8601
// strings, like every other timestamp the API shows; function parameters take epoch milliseconds.
import type { Static } from '@sinclair/typebox';
import type { PublicChannel as PublicChannelSchema } from '../../contract/monitor.js';

/** A channel as stored: the secret is kept so every delivery can sign. */
export type Channel =
  { type: 'webhook'; url: string; secret: string | null } | { type: 'slack'; url: string } | { type: 'email'; to: string };

export type ChannelType = Channel['type'];

/** What responses show of a channel: never the secret, only whether there is one. */
export type PublicChannel = Static<typeof PublicChannelSchema>;

export type ChannelErrorCode = 'invalid_parameter' | 'invalid_url' | 'url_not_allowed';

/** Why a submitted channel was refused; `field` names the offending property (e.g. `url`, `channels[2].to`). */
export interface ChannelError {
  code: ChannelErrorCode;
  message: string;
  field: string;
}

export type ChannelParseResult = { ok: true; channel: Channel } | { ok: false; error: ChannelError };

export type AlertEventType = 'monitor.broken' | 'monitor.recovered' | 'monitor.changed';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface AlertChange {
  field: string;
  from: JsonValue;
  to: JsonValue;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One delivery as the event shows it (CONTRACT.md: `deliveries[]`). */
export interface DeliveryView {
  channel: PublicChannel;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
}

/** The event as the API stores and lists it. */
export interface AlertEvent {
  id: string;
  monitorId: string;
  type: AlertEventType;
  createdAt: string;
  checkSlug: string;
  previousCheckSlug: string | null;
  changes: AlertChange[];
  deliveries: DeliveryView[];
}

/** The monitor's state after the run that raised the event. */
export type MonitorState = 'pending' | 'healthy' | 'broken' | 'unknown';

/**
 * Everything a channel needs to describe one event to a person. The event alone names checks by slug;
 * people need the monitor's name and links to the reports, which the caller builds from the public URL.
 */
export interface Alert {
  event: AlertEvent;
  monitor: { name: string | null; url: string; state: MonitorState };
  reportUrl: string;
  previousReportUrl: string | null;
}

/**
 * Per-delivery progress, small enough to persist as JSON next to the event. `deliveryId` is the
 * `Trackcheck-Delivery` header: the same on every attempt, so receivers can drop duplicates.
 */
export interface DeliveryState {
  channelIndex: number;
  deliveryId: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  /** When the next attempt is due (ISO-8601); null once delivered or failed. */
  nextAttemptAt: string | null;
}

/** The outcome of one attempt. `retryable: false` marks what no retry can fix (configuration). */
export type AttemptResult = { ok: true; detail: string } | { ok: false; error: string; retryable: boolean };

/**
 * What the caller fills from configuration (CONTRACT.md section 8): `TRACKCHECK_SMTP_URL`,
 * `TRACKCHECK_ALERT_FROM` and `TRACKCHECK_ALERT_RETRY_MS`.
 */
export interface AlertOptions {
  /** `smtp://` or `smtps://`; null = email channels are refused. */
  smtpUrl: string | null;
  /** The From address of alert emails; see `defaultAlertFrom`. */
  alertFrom: string;
  /** The first retry delay of a delivery, doubling each time (default 30 000). */
  retryFirstDelayMs: number;
}
