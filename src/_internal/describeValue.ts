/** A short phrase for a value of the wrong shape, for error messages: "a number", "an object with keys a, b". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
  return `a ${typeof value}`;
}
