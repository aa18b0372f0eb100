// Which errors mean "a dependency is unreachable right now" (→ 503 service_unavailable, retry shortly) rather than
// a bug (→ 500): the database, the identity provider, the rate-limit counter store. The API's and the pages' error
// handlers both answer through http/errors.ts toApiError, which asks this one question.
import { IdentityProviderUnavailable } from '../auth/errors.js';
import { RateLimitStoreUnavailable } from '../rate-limit/store.js';
import { isDatabaseUnavailable } from '../lib/database-unavailable.js';

export function isServiceUnavailable(err: unknown): boolean {
  return isDatabaseUnavailable(err) || err instanceof IdentityProviderUnavailable || err instanceof RateLimitStoreUnavailable;
}
