/** Server-Sent Events text as frames, for tests of every stream the service answers with. */

/** A parsed SSE frame (comments are kept as `{comment}`). */
export interface Frame {
  id?: number;
  event?: string;
  data?: any;
  comment?: string;
}

/** Parses SSE text into frames. */
export function parseSse(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const f: Frame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) f.comment = line.slice(1).trim();
        else if (line.startsWith('id: ')) f.id = Number(line.slice(4));
        else if (line.startsWith('event: ')) f.event = line.slice(7);
        else if (line.startsWith('data: ')) f.data = JSON.parse(line.slice(6));
      }
      return f;
    });
}
