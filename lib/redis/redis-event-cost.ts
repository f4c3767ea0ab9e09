// What the event log and the bus log cost in Redis, counted the way Redis allocates it, so that the byte
// bounds hold for what Redis itself holds (the MEMORY USAGE of a session's log keys), not only for the JSON. Redis
// keeps each stream entry in a listpack node of its Stream's radix tree, reserves 4 kB for the newest node
// of every Stream, and its allocator (jemalloc) rounds every block up to a size class: up to a quarter more
// than asked. Costs are upper bounds: a log of small events, which share nodes, is charged more than it
// takes, so it keeps fewer of them than the bytes alone would allow (the bound on events usually binds first).

/** Fields of an entry besides the JSON: the entry header, the byte count, the listpack's own bytes. */
const ENTRY_BYTES = 64;
/** An event's node in the Stream's radix tree when it has one of its own (an event over 4 kB always does). */
const NODE_BYTES = 512;
/** An event's member of the session's order set: the skiplist node, the dictionary entry, besides the text. */
const ORDER_MEMBER_BYTES = 96;
/** The longest `<sequence>|` and `|<bytes>` around the stream id in an order member, with the string header. */
const ORDER_TEXT_BYTES = 34;
/** What Redis reserves for the newest node of a Stream (STREAM_LISTPACK_MAX_PRE_ALLOCATE). */
const STREAM_RESERVE_BYTES = 4096;
/** A Stream's object and radix tree, its entry in the key space and in the done set, besides the key's name. */
const STREAM_BYTES = 640;

/** A session's bus counters (a small hash): its object and fields, besides the key's name. */
const COUNTERS_BYTES = 128;

/** The block Redis's allocator hands out for `bytes`: jemalloc's size classes, four per doubling. */
export function allocatedBytes(bytes: number): number {
  if (bytes <= 16) return 16;
  const power = 2 ** Math.floor(Math.log2(bytes - 1));
  const step = Math.max(16, power / 4);
  return Math.ceil(bytes / step) * step;
}

/** What one event of `jsonBytes` on stream `streamId` costs in Redis, at most. */
export function redisEventCost(jsonBytes: number, streamId: string): number {
  return (
    allocatedBytes(jsonBytes + ENTRY_BYTES) +
    NODE_BYTES +
    allocatedBytes(streamId.length + ORDER_TEXT_BYTES) +
    ORDER_MEMBER_BYTES
  );
}

/**
 * What a Stream costs in Redis besides its events, at most: its key (`streamKey`, the whole name), the node
 * Redis reserves, its object, and the session's records of it.
 */
export function redisStreamCost(streamKey: string, streamId: string): number {
  return (
    STREAM_RESERVE_BYTES +
    STREAM_BYTES +
    allocatedBytes(streamKey.length + 9) +
    2 * allocatedBytes(streamId.length + ORDER_TEXT_BYTES)
  );
}

/** What one bus message of `jsonBytes` costs in Redis, at most (an entry of the session's bus log). */
export function redisBusEntryCost(jsonBytes: number): number {
  return allocatedBytes(jsonBytes + ENTRY_BYTES) + NODE_BYTES;
}

/**
 * What a session's bus log costs in Redis besides its messages, at most: its Stream (`logKey`, the whole
 * name) with the node Redis reserves, and its counters (`countersKey`).
 */
export function redisBusLogCost(logKey: string, countersKey: string): number {
  return (
    STREAM_RESERVE_BYTES +
    STREAM_BYTES +
    allocatedBytes(logKey.length + 9) +
    allocatedBytes(countersKey.length + 9) +
    COUNTERS_BYTES
  );
}
