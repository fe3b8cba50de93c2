import { isIP } from 'node:net';

/**
 * Which network addresses the outbound HTTP client may reach (webhook targets, OAuth client
 * metadata URLs). Everything that is not a public unicast address
 * is refused: private, loopback, link-local, CGNAT, cloud metadata, multicast, unspecified,
 * documentation/benchmark and other reserved ranges, for IPv4 and IPv6 (IPv4-mapped, NAT64 and
 * 6to4 forms are judged by the IPv4 address they carry). OUTBOUND_HTTP_ALLOW_LOOPBACK (formerly
 * WEBHOOK_ALLOW_LOOPBACK) lets loopback through for local development and tests, nothing else.
 */
export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'metadata'
  | 'multicast'
  | 'unspecified'
  | 'reserved'
  | 'documentation';

type Range = [bytes: number[], prefix: number, category: Exclude<AddressCategory, 'public'>];

const v4 = (cidr: string, category: Range[2]): Range => {
  const [ip, len] = cidr.split('/');
  return [parseIPv4(ip)!, Number(len), category];
};
const v6 = (cidr: string, category: Range[2]): Range => {
  const [ip, len] = cidr.split('/');
  return [parseIPv6(ip)!, Number(len), category];
};

// Order matters: the first match wins (metadata before the link-local range that contains it).
const IPV4_RANGES: Range[] = [
  v4('169.254.169.254/32', 'metadata'),
  v4('169.254.170.2/32', 'metadata'),
  v4('100.100.100.200/32', 'metadata'),
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link_local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fd00:ec2::254/128', 'metadata'),
  v6('::/96', 'reserved'), // IPv4-compatible (deprecated)
  v6('64:ff9b:1::/48', 'reserved'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001::/32', 'reserved'), // Teredo
  v6('2001:db8::/32', 'documentation'),
  v6('3fff::/20', 'documentation'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link_local'),
  v6('fec0::/10', 'reserved'),
  v6('ff00::/8', 'multicast'),
];

export function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

/** 16 bytes, or null. Accepts `::` compression, an embedded dotted IPv4 tail and a `%zone`. */
export function parseIPv6(input: string): number[] | null {
  let s = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return null;
  const lastColon = s.lastIndexOf(':');
  const maybeV4 = s.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    // Rewrite an embedded dotted IPv4 tail as two hex words.
    const b = parseIPv4(maybeV4);
    if (!b) return null;
    s = `${s.slice(0, lastColon + 1)}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, null];
  const parse = (x: string) => (x === '' ? [] : x.split(':').map((h) => parseInt(h, 16)));
  const a = parse(head);
  const b = rest === null ? [] : parse(rest);
  if (a.length + b.length > 8) return null;
  const words = rest === null ? a : [...a, ...new Array(8 - a.length - b.length).fill(0), ...b];
  if (words.length !== 8 || words.some((w) => !(w >= 0 && w <= 0xffff))) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function inRange(bytes: number[], range: Range): boolean {
  const [base, prefix] = range;
  let bits = prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

function classifyV4(b: number[]): AddressCategory {
  for (const r of IPV4_RANGES) if (inRange(b, r)) return r[2];
  return 'public';
}

/** The category of an IP literal (v4 or v6); null when `ip` is not an address. */
export function classifyAddress(ip: string): AddressCategory | null {
  const b4 = parseIPv4(ip);
  if (b4) return classifyV4(b4);
  const b = parseIPv6(ip);
  if (!b) return null;
  const prefixIs = (n: number, ...vals: number[]) => vals.every((v, i) => b[i] === v) && n === vals.length;
  // IPv4-mapped ::ffff:a.b.c.d and NAT64 64:ff9b::a.b.c.d carry an IPv4 address: judge that one.
  if (prefixIs(12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff)) return classifyV4(b.slice(12));
  if (prefixIs(12, 0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0)) return classifyV4(b.slice(12));
  // 6to4 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
  if (b[0] === 0x20 && b[1] === 0x02) return classifyV4(b.slice(2, 6));
  for (const r of IPV6_RANGES) if (inRange(b, r)) return r[2];
  return 'public';
}

export interface AddressPolicy {
  allowLoopback: boolean;
}

/** Null when the address may be contacted; otherwise why not (for logs and error messages). */
export function refusalReason(ip: string, policy: AddressPolicy): string | null {
  const category = classifyAddress(ip);
  if (category === null) return `${ip} is not an IP address`;
  if (category === 'public') return null;
  if (category === 'loopback' && policy.allowLoopback) return null;
  return `${ip} is a ${category.replace('_', '-')} address`;
}

/** Host names that name internal services rather than the internet. */
const INTERNAL_NAMES = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
const INTERNAL_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa'];

export type TargetUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Static check of a target URL at create/patch time: `https:` (or `http:` to a loopback host when
 * OUTBOUND_HTTP_ALLOW_LOOPBACK), no credentials, no IP literal or internal host name outside the
 * policy. Names are resolved and checked again at every connect (./http-client.ts).
 */
export function checkTargetUrl(raw: string, policy: AddressPolicy): TargetUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'target_url must be an absolute URL, e.g. https://example.com/webhooks' };
  }
  if (raw.length > 2048) return { ok: false, message: 'target_url is longer than 2048 characters' };
  if (url.username || url.password) return { ok: false, message: 'target_url must not contain credentials' };
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const isLiteral = isIP(literal) !== 0;
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  const isLoopbackHost = loopbackName || (isLiteral && classifyAddress(literal) === 'loopback');
  if (url.protocol === 'http:') {
    if (!policy.allowLoopback) return { ok: false, message: 'target_url must use https:' };
    if (!isLoopbackHost)
      return {
        ok: false,
        message: 'target_url must use https: (http: is allowed for loopback targets in development only)',
      };
  } else if (url.protocol !== 'https:') {
    return { ok: false, message: 'target_url must use https:' };
  }
  if (isLiteral) {
    const reason = refusalReason(literal, policy);
    if (reason) return { ok: false, message: `target_url is not allowed: ${reason}` };
    return { ok: true, url };
  }
  if (loopbackName) {
    return policy.allowLoopback
      ? { ok: true, url }
      : { ok: false, message: `target_url is not allowed: ${host} is a loopback host` };
  }
  if (INTERNAL_NAMES.has(host) || INTERNAL_SUFFIXES.some((s) => host.endsWith(s)) || !host.includes('.')) {
    return { ok: false, message: `target_url is not allowed: ${host} names an internal host` };
  }
  return { ok: true, url };
}
