import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import { EVENT_KEY } from './SessionEvents.js';

/**
 * The listen-stream bus with an identity on every event (in `params._meta`; the recorder of a listen stream
 * removes it before the client sees it): two instances recording one stream store an event once.
 */
export function keyedEventBus(bus: ServerEventBus): ServerEventBus {
  return {
    publish(event: ServerEvent) {
      const params = event.params as Record<string, unknown> | undefined;
      const meta = { ...(params?._meta as Record<string, unknown> | undefined), [EVENT_KEY]: randomUUID() };
      bus.publish({ ...event, params: { ...params, _meta: meta } } as ServerEvent);
    },
    subscribe: (listener) => bus.subscribe(listener),
  };
}
