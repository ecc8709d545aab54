import type { DevConsoleTap } from '../console/devConsole.js';
import { pathnameOf } from '../http/urlPath.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The dev console's page and feeds, beside the endpoint (`devConsole` option): served as they are. */
export function consoleRoute(tap: Pick<DevConsoleTap<unknown>, 'owns' | 'serve'>): HttpMiddleware {
  return (c, next) => (tap.owns(pathnameOf(c.request.url)) ? tap.serve(c.request, c.peer) : next(c));
}
