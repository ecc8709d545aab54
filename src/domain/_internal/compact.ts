type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** A copy of `fields` without its undefined entries, so that optional wire fields are absent rather than undefined. */
export function compact<T extends Record<string, unknown>>(fields: T): Compact<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as Compact<T>;
}
