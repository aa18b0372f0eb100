/** Who is calling, as every layer sees it (resolved from the Authorization header by the HTTP layer). */
export type Principal =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'user'; userId: string; via: 'session' }
  | { kind: 'user'; userId: string; via: 'apiKey'; keyId: string };

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;
