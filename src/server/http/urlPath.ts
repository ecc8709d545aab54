/** A request target (`/path?query`) the URL parser leaves as it is: plain path characters, then maybe a query. */
export const PLAIN_TARGET = /^(\/[\w\-~!$&'()*+,;=:@/]*)(?:\?[^#]*)?$/;

/**
 * The path of `url` (a normalized `Request.url`), read straight from the string when it is plain (what
 * clients send; `new URL` would return the same), else as `new URL` normalizes it (dot segments, escapes).
 */
export function pathnameOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  const plain = slash < 0 ? null : PLAIN_TARGET.exec(url.slice(slash));
  return plain === null ? new URL(url).pathname : plain[1]!;
}

const hrefs = new Map<string, string>();

/**
 * `http://<host><target>` as `new URL(…).href` normalizes it (kept as is if it cannot be parsed). A server
 * sees few distinct hosts and targets, so the answers are remembered (up to 256; then the memory starts over).
 */
export function requestUrl(host: string, target: string): string {
  const url = `http://${host}${target}`;
  let href = hrefs.get(url);
  if (href === undefined) {
    try {
      href = new URL(url).href;
    } catch {
      href = url;
    }
    if (hrefs.size >= 256) hrefs.clear();
    hrefs.set(url, href);
  }
  return href;
}
