// Hands one message from the checker (initResp, optIn, optOut, evalResp) to the autoconsent bundle of this
// document, without waiting for what it starts: results come back as messages of their own.
// Node side: cmp/autoconsent-session.ts.
export default function deliverAutoconsentMessage(args: { receiveKey: string; message: unknown }): boolean {
  const receiver = (window as unknown as Record<string, unknown>)[args.receiveKey];
  if (typeof receiver !== 'function') return false;
  Promise.resolve()
    .then(() => (receiver as (message: unknown) => unknown)(args.message))
    .catch(() => undefined);
  return true;
}
