// Just enough MIME to read back what nodemailer sent: headers, multipart/alternative parts, and the
// quoted-printable or base64 bodies. Tests only.

export interface MimePart {
  headers: Map<string, string>;
  body: string;
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const unfolded = text.replace(/=\r\n/g, '');
  for (let i = 0; i < unfolded.length; i += 1) {
    const ch = unfolded[i] ?? '';
    if (ch === '=' && /^[0-9A-F]{2}$/i.test(unfolded.slice(i + 1, i + 3))) {
      bytes.push(parseInt(unfolded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Map<string, string>, raw: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(raw);
  if (encoding === 'base64') return Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8');
  return raw;
}

function split(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  return { headers: parseHeaders(raw.slice(0, end)), body: raw.slice(end + 4) };
}

/** The message headers and its leaf parts (one part when the message is not multipart). */
export function parseMessage(raw: string): { headers: Map<string, string>; parts: MimePart[] } {
  const top = split(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(top.headers.get('content-type') ?? '')?.[1];
  if (boundary === undefined) return { headers: top.headers, parts: [{ headers: top.headers, body: decodeBody(top.headers, top.body) }] };
  const chunks = top.body.split(`--${boundary}`).slice(1, -1);
  const parts = chunks.map((chunk) => {
    const part = split(chunk.replace(/^\r\n/, '').replace(/\r\n$/, ''));
    return { headers: part.headers, body: decodeBody(part.headers, part.body) };
  });
  return { headers: top.headers, parts };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`) back to text. */
export function decodeHeader(value: string): string {
  return value.replace(/\s*=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}
