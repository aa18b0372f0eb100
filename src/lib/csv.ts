// A small RFC 4180 reader for link lists (the CLI and the batch page) and the service's results.csv: quoted
// fields with "" escapes and line breaks inside quotes, CRLF or LF, a leading byte-order mark ignored. Each record keeps the line it
// starts on, so errors can point at the user's file.

export interface CsvRecord {
  fields: string[];
  /** 1-based line number where the record starts. */
  line: number;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `,` unless the header line holds more `;` or tabs than commas (spreadsheets in many locales write `;`). */
export function detectDelimiter(text: string): string {
  const first =
    stripBom(text)
      .split(/\r\n|\n|\r/)
      .find((line) => line.trim() !== '' && !line.trim().startsWith('#')) ?? '';
  const count = (c: string) => first.split(c).length - 1;
  const [best] = [',', ';', '\t'].sort((a, b) => count(b) - count(a));
  return best !== undefined && count(best) > 0 ? best : ',';
}

export function parseCsv(input: string, delimiter = ','): CsvRecord[] {
  const text = stripBom(input);
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    records.push({ fields, line: recordLine });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += c;
    i++;
  }
  if (field !== '' || fields.length > 0 || quoted) endRecord();
  return records;
}
