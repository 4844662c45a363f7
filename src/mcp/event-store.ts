/**
 * Event IDs on a session's SSE streams, so a client whose stream dropped can resume it with
 * `Last-Event-ID` (the transport specification's resumability). Events are kept in memory per
 * session and bounded by bytes: the oldest go first, and a resume from an event no longer kept
 * replays nothing.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Bytes of event JSON one session keeps for replay. */
export const EVENT_STORE_BYTES = 256 * 1024;

/** A bounded event store for one session. */
export function createEventStore(maxBytes = EVENT_STORE_BYTES): EventStore {
  const events: { id: string; stream: string; message: JSONRPCMessage; bytes: number }[] = [];
  let bytes = 0;
  let seq = 0;
  return {
    async storeEvent(stream, message) {
      const id = `${stream}_${++seq}`;
      const size = JSON.stringify(message).length;
      events.push({ id, stream, message, bytes: size });
      bytes += size;
      while (bytes > maxBytes && events.length > 1) bytes -= events.shift()!.bytes;
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.find((e) => e.id === eventId)?.stream;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((e) => e.id === lastEventId);
      if (at < 0) return '';
      const { stream } = events[at]!;
      for (const e of events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
      return stream;
    },
  };
}
