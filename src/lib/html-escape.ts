// Escaping for HTML (server-rendered pages, the API reference at /docs, alert emails): every interpolated value goes
// through escapeHtml. The one copy; web/html.ts re-exports it for the pages.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}
