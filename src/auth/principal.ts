/** Who is calling, as every layer sees it (resolved from the Authorization header by the HTTP layer). */
export type Principal =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'user'; userId: string; via: 'session' }
  | { kind: 'user'; userId: string; via: 'apiKey'; keyId: string };

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/** Whose work a queued check is, for the queue's fairness: the user, or an anonymous caller's address. */
export function jobRequester(principal: Principal): string {
  return principal.kind === 'user' ? userJobRequester(principal.userId) : `ip:${principal.ip}`;
}

export function userJobRequester(userId: string): string {
  return `user:${userId}`;
}
