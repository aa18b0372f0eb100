// Escaping for server-rendered pages: every interpolated value goes through escapeHtml (lib/html-escape.ts).
export { escapeHtml } from '../lib/html-escape.js';
