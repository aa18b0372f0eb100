// What every web token (session cookie, one-time sign-in link) shares: its issuer and the rule for a user id.
export const WEB_ISSUER = 'urn:trackcheck:web';

/** Same rule as session tokens (README.md): a user id is 1 to 255 characters, not blank. */
export function isValidUserId(userId: unknown): userId is string {
  return typeof userId === 'string' && userId.trim() !== '' && userId.length <= 255;
}
