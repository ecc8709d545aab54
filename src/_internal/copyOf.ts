/**
 * A shallow copy with the same keys in the same order as `{ ...source }`, built so that adding keys to it
 * afterwards stays cheap: on Node 20, a key added to (or after) an object spread takes the slow path,
 * about 10× the cost of `Object.assign` plus a plain store. An own `__proto__` key (from `JSON.parse`)
 * and non-objects take the spread, where `Object.assign` would change the copy's prototype instead.
 */
export function copyOf<T>(source: T): T {
  if (typeof source !== 'object' || source === null || Object.hasOwn(source, '__proto__')) return { ...source };
  return Object.assign({}, source);
}
