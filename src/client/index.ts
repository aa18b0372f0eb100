// The public surface of the trackcheck client (also the package's main export, src/index.ts).
export {
  TrackcheckClient,
  type TrackcheckClientOptions,
  type CallOptions,
  type WaitOptions,
  type BatchWaitOptions,
  type ScanWaitOptions,
} from './client.js';
export { TrackcheckApiError, TrackcheckConnectionError, TrackcheckTimeoutError, type ApiErrorType } from './errors.js';
export { OPERATIONS, type OperationName } from './operations.js';
export { DEFAULT_RETRY, backoffDelayMs, parseRetryAfter, retryDelayMs, type RetryOptions, type AttemptOutcome } from './retry.js';
export { defaultSleep, type FetchLike, type RetryEvent, type Sleep } from './transport.js';
export { paginate } from './paginate.js';
export type * from './types.js';
