/** An IP address as bytes: 4 for IPv4 (an IPv4-mapped IPv6 address included), 16 for IPv6. */
export type IpBytes = readonly number[];

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/**
 * Parses an IPv4 or IPv6 address (a zone `%eth0` is dropped) into its bytes; `::ffff:a.b.c.d` is IPv4.
 * `undefined` when `text` is not an address. Pure.
 */
export function parseIp(text: string): IpBytes | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return v4;
  const bytes = parseIpv6(text.replace(/%.*$/, ''));
  if (bytes === undefined) return undefined;
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

function parseIpv4(text: string): number[] | undefined {
  const m = IPV4.exec(text);
  if (m === null) return undefined;
  const bytes = m.slice(1, 5).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function parseIpv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (HEX_GROUP.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** `bytes` with every bit past the first `bits` cleared. */
export function maskIp(bytes: IpBytes, bits: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.min(8, Math.max(0, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

/** True when the first `bits` bits of `a` and `b` are equal (both of one family). */
export function samePrefix(a: IpBytes, b: IpBytes, bits: number): boolean {
  if (a.length !== b.length) return false;
  const x = maskIp(a, bits);
  const y = maskIp(b, bits);
  return x.every((v, i) => v === y[i]);
}

/** The canonical text of an address (RFC 5952: lower case, no leading zeros, the longest zero run as `::`). */
export function formatIp(bytes: IpBytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}
