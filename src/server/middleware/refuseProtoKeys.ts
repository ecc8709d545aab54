import { protoKeyOfBody } from '../../protocol/protoKeys.js';
import { httpError } from '../http/httpErrors.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/**
 * `400` `-32602` for a `tools/call` (alone or in a batch) whose arguments hold a `__proto__` key: `JSON.parse`
 * keeps it as data, but the SDK's message schema drops it silently, so the tool's validation never sees it.
 */
export const refuseProtoKeys: HttpMiddleware = (c, next) => {
  const proto = protoKeyOfBody(c.body);
  return proto === undefined ? next(c) : httpError('unknownField', proto.message, proto.id);
};
