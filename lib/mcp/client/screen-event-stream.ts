/**
 * A stream that passes an event stream (`text/event-stream`) on event by event: the lines of an event are held
 * until the blank line that ends it, then passed on as they came, or, when `decide` returns other text for the
 * event's data (only `message` events, or events without a type), with their `data` lines replaced by that
 * text, or by one empty `data` line when it returns undefined (the event still counts, its message is gone).
 * The event's other lines (`id`, `event`, `retry`, comments) stay; events with empty data are not screened.
 */
export function screenEventStream(
  decide: (data: string) => string | undefined,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const lines = new LineSplitter();
  let event: string[] = [];
  const pass = (controller: TransformStreamDefaultController<Uint8Array>, found: readonly string[]) => {
    let text = '';
    for (const line of found) {
      event.push(line);
      if (isBlank(line)) {
        text += endEvent(event, decide);
        event = [];
      }
    }
    if (text !== '') controller.enqueue(encoder.encode(text));
  };
  return new TransformStream({
    transform(chunk, controller) {
      pass(controller, lines.feed(decoder.decode(chunk, { stream: true }), false));
    },
    flush(controller) {
      pass(controller, lines.feed(decoder.decode(), true));
      // An event the stream never ended is discarded by every reader; its lines go on as they came.
      if (event.length > 0) controller.enqueue(encoder.encode(event.join('')));
    },
  });
}

/** Splits text arriving in pieces into lines, each with its ending (CRLF, LF or CR, as the format allows). */
class LineSplitter {
  /** The unfinished line: everything after the last ending (a CR last may be the first half of a CRLF). */
  private partial = '';

  /** The lines the new text completes (all that is left, too, when `final`). */
  feed(text: string, final: boolean): string[] {
    const found: string[] = [];
    let start = 0;
    if (this.partial.endsWith('\r') && (text !== '' || final)) {
      const crlf = text.startsWith('\n');
      found.push(crlf ? `${this.partial}\n` : this.partial);
      this.partial = '';
      start = crlf ? 1 : 0;
    }
    // Each index found once and reused until passed: a long text with many lines is searched once.
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    while (lf !== -1 || cr !== -1) {
      let end: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        if (cr === text.length - 1 && !final) break;
        end = text[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else end = lf + 1;
      found.push(this.partial + text.slice(start, end));
      this.partial = '';
      start = end;
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    this.partial += text.slice(start);
    if (final && this.partial !== '') {
      found.push(this.partial);
      this.partial = '';
    }
    return found;
  }
}

function isBlank(line: string): boolean {
  return line === '\n' || line === '\r\n' || line === '\r';
}

/** The text of one whole event (its lines, the blank line last) after screening its data. */
function endEvent(lines: readonly string[], decide: (data: string) => string | undefined): string {
  let type = '';
  const data: string[] = [];
  for (const line of lines) {
    const field = parseField(line);
    if (field?.name === 'event') type = field.value;
    else if (field?.name === 'data') data.push(field.value);
  }
  const text = data.join('\n');
  // An event with empty data (a priming event: an id and a retry) carries no message; readers skip it.
  if (text === '' || (type !== '' && type !== 'message')) return lines.join('');
  const decided = decide(text);
  if (decided === text) return lines.join('');
  const blank = lines[lines.length - 1];
  const others = lines.slice(0, -1).filter((line) => parseField(line)?.name !== 'data');
  // A dropped message keeps an empty data line: the event is still dispatched, so its id still counts for
  // resuming the stream, and readers skip it as they skip a priming event.
  return [...others, `data: ${decided ?? ''}${blank}`, blank].join('');
}

/** A line's field name and value as the event-stream format reads them (undefined for a comment or blank). */
function parseField(line: string): { name: string; value: string } | undefined {
  const content = line.replace(/\r\n$|\n$|\r$/, '');
  if (content === '' || content.startsWith(':')) return undefined;
  const colon = content.indexOf(':');
  if (colon === -1) return { name: content, value: '' };
  const value = content.slice(colon + 1);
  return { name: content.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}
