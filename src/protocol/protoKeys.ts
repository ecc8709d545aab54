/**
 * The path of the first own `__proto__` key in parsed JSON arguments (`JSON.parse` makes it a plain own
 * property, which schema validators silently drop): such a key is refused as an unknown field rather than
 * ignored. Iterative and bounded, whatever the nesting.
 */
export function protoKeyPath(value: unknown, maxNodes = 10_000): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  let seen = 0;
  while (stack.length > 0 && seen++ < maxNodes) {
    const [node, path] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, '__proto__')) return path === '' ? '__proto__' : `${path}.__proto__`;
    for (const [key, child] of Object.entries(node)) stack.push([child, path === '' ? key : `${path}.${key}`]);
  }
  return undefined;
}

/** The path of a `__proto__` key in the arguments of a parsed `tools/call` message, if any. */
export function protoKeyOfCall(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') return undefined;
  return protoKeyPath((message as { params?: { arguments?: unknown } }).params?.arguments);
}
