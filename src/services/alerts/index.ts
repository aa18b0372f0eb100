// Alert delivery for monitors (CONTRACT.md section 8): channel validation, signing, one-attempt delivery
// and the pure retry state. Scheduling and persistence belong to the caller. See README.md.
export { MAX_CHANNELS, parseChannel, parseChannels, publicChannel, type ChannelRules } from './channel.js';
export { deliver, DELIVERY_TIMEOUT_MS, type DeliveryDeps } from './deliver.js';
export { applyAttemptResult, deliveryView, isDue, newDeliveryStates } from './delivery-state.js';
export { buildEmailMessage, type EmailMessage } from './email-message.js';
export { defaultAlertFrom, isSmtpUrl } from '../smtp.js';
export { buildWebhookBody, serializeWebhookBody, type WebhookBody } from './payload.js';
export { DEFAULT_RETRY_FIRST_DELAY_MS, GIVE_UP_AFTER_MS, nextAttemptAt, retryPolicy, type RetryPolicy } from './retry.js';
export { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, signWebhook, verifySignature } from './signature.js';
export { buildSlackMessage, type SlackBlock, type SlackMessage } from './slack-message.js';
export { summarizeAlert, type AlertSummary } from './summary.js';
export type * from './types.js';
