import { jsonRpcIdOf, type JsonRpcId } from './jsonRpcId.js';

/**
 * The path of the first own `__proto__` key in parsed JSON arguments (`JSON.parse` makes it a plain own
 * property, which schema validators silently drop): such a key is refused as an unknown field rather than
 * ignored. Iterative, whatever the nesting, and complete: every node is looked at (the body's size budget bounds
 * how many there are), so a key deep in a large request is found, not skipped.
 */
export function protoKeyPath(value: unknown, maxNodes = Number.POSITIVE_INFINITY): string | undefined {
  return hasProtoKey(value, maxNodes) ? pathOfProtoKey(value, maxNodes) : undefined;
}

/** Whether there is an own `__proto__` key within the first `maxNodes` nodes; allocates nothing for flat arguments. */
function hasProtoKey(value: unknown, maxNodes: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let stack: unknown[] | undefined;
  let node: unknown = value;
  let seen = 0;
  for (;;) {
    if (seen++ >= maxNodes) return false;
    if (typeof node === 'object' && node !== null) {
      if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, '__proto__')) return true;
      for (const key in node) {
        const child = (node as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) (stack ??= []).push(child);
      }
    }
    if (stack === undefined || stack.length === 0) return false;
    node = stack.pop();
  }
}

function pathOfProtoKey(value: unknown, maxNodes: number): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  let seen = 0;
  while (stack.length > 0 && seen++ < maxNodes) {
    const [node, path] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, '__proto__'))
      return path === '' ? '__proto__' : `${path}.__proto__`;
    for (const [key, child] of Object.entries(node)) stack.push([child, path === '' ? key : `${path}.${key}`]);
  }
  return undefined;
}

/** The path of a `__proto__` key in the arguments of a parsed `tools/call` message, if any. */
export function protoKeyOfCall(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call')
    return undefined;
  return protoKeyPath((message as { params?: { arguments?: unknown } }).params?.arguments);
}

/** The first `tools/call` of an HTTP body (one message or a batch) whose arguments hold a `__proto__` key. */
export interface ProtoKeyCall {
  /** The path of the key in the call's arguments. */
  readonly path: string;
  readonly id: JsonRpcId;
  readonly name: unknown;
  /** The refusal, for the agent: the field is not accepted. */
  readonly message: string;
}

/**
 * Like {@link protoKeyOfCall} for a whole HTTP body: a single message, or every message of a batch, so that a
 * call inside a batch is refused as it is alone.
 */
export function protoKeyOfBody(body: unknown): ProtoKeyCall | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    const path = protoKeyOfCall(message);
    if (path === undefined) continue;
    const { name } = (message as { params: { name?: unknown } }).params;
    const text = `Invalid arguments for tool "${String(name)}": ${path} is not an accepted field (unknown field). Remove it and call the tool again.`;
    return { path, id: jsonRpcIdOf(message), name, message: text };
  }
  return undefined;
}
