/**
 * A small RFC 4180 CSV reader for question sets: comma-separated fields, `"quoted"` fields with
 * `""` for a quote and embedded commas and newlines, CRLF or LF line ends, a UTF-8 BOM ignored.
 * Our own rather than a dependency: question files are small and this is all they need.
 */

/** One record with the 1-based line of the file it starts on (for error messages). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A malformed file; the message names the line. */
export class CsvError extends Error {
  override name = 'CsvError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Splits CSV text into records. Blank lines (outside quotes) are skipped.
 * @throws CsvError for a quote that is never closed or text after a closing quote.
 */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let line = 1;
  let fields: string[] = [];
  let field = '';
  let start = 1;
  let quoted = false;
  let quoteLine = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    // A line with nothing on it is not a record with one empty field.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields });
    fields = [];
    field = '';
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        const next = src[i + 1];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvError(line, 'text after a closing quote (write a quote inside a quoted field as "")');
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      endRecord();
      if (ch === '\r' && src[i + 1] === '\n') i++;
      line++;
      start = line;
    } else {
      field += ch;
    }
    i++;
  }
  if (quoted) throw new CsvError(quoteLine, 'a quoted field is never closed');
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
