import { screenEventStream } from '../../../lib/mcp/client/screen-event-stream';

/** Runs chunks of text through the stream and returns what comes out, with every `data` seen. */
async function run(
  chunks: readonly string[],
  decide: (data: string) => string | undefined = (data) => data,
): Promise<{ text: string; seen: string[] }> {
  const seen: string[] = [];
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const screened = body.pipeThrough(
    screenEventStream((data) => {
      seen.push(data);
      return decide(data);
    }),
  );
  return { text: await new Response(screened).text(), seen };
}

describe('screenEventStream', () => {
  it('passes events on byte for byte when the data is kept, whatever the line endings and chunking', async () => {
    const stream =
      ': comment\r\nid: 7\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: two\rdata: lines\r\rdata: x\n\n';
    const whole = await run([stream]);
    expect(whole.text).toBe(stream);
    expect(whole.seen).toEqual(['{"a":\n1}', 'two\nlines', 'x']);
    // One character at a time: a CRLF split across chunks is one line ending, not a CR and a blank line.
    const split = await run([...stream]);
    expect(split.text).toBe(stream);
    expect(split.seen).toEqual(whole.seen);
  });

  it('replaces the data lines of an event, keeping its id and type', async () => {
    const { text } = await run(['id: 3\nevent: message\ndata: {"bad":\ndata: true}\n\n'], () => '{"ok":1}');
    expect(text).toBe('id: 3\nevent: message\ndata: {"ok":1}\n\n');
  });

  it('empties the data of a dropped event, so readers skip it but still count its id', async () => {
    const { text } = await run(['id: 4\ndata: dropped\n\ndata: kept\n\n'], (data) =>
      data === 'dropped' ? undefined : data,
    );
    expect(text).toBe('id: 4\ndata: \n\ndata: kept\n\n');
  });

  it('leaves events of other types, events without data, priming events and an unfinished event alone', async () => {
    const stream =
      'event: endpoint\ndata: /messages?session=1\n\nretry: 500\n\nid: 1\nretry: 500\ndata: \n\ndata: never ended';
    const { text, seen } = await run([stream], () => 'replaced');
    expect(text).toBe(stream);
    expect(seen).toEqual([]);
  });
});
