/** `host [":" port]`: a registered name or IPv4 address, or a bracketed IPv6 literal; no user info, no path. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;

/** True when a `Host` header is syntactically valid (absent counts as valid: the allow-list check decides). */
export function isValidHostHeader(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (!HOST.test(value)) return false;
  const port = /:(\d+)$/.exec(value)?.[1];
  return port === undefined || Number(port) <= 65_535;
}

/** The message of a `400` for a malformed `Host` header. */
export function badHostMessage(value: string): string {
  return `Bad Request: the Host header ${JSON.stringify(value.slice(0, 100))} is malformed; send host or host:port (for example 127.0.0.1:3000).`;
}
