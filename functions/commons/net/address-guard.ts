/**
 * The SSRF guard: decides whether vidbot may connect to a URL given by a caller (a background video, a
 * webhook). A Lambda can reach the instance metadata service, the VPC and AWS-internal endpoints, so only
 * public unicast addresses are allowed; the local runtime additionally allows loopback to the ports it allows
 * (its gateway, and the file servers and webhook receivers a test, the demo or a developer names), never to its
 * own data stores: a refused port is refused before any connection, so its answer tells nothing of what listens.
 *
 * Every check works on addresses, not on spellings: the URL is parsed by the WHATWG parser (which turns
 * `http://2852039166/`, `http://0xA9FEA9FE/` and `http://0251.0376.0251.0376/` into `169.254.169.254`), names
 * are resolved and every resolved address must pass, and IPv6 forms that embed an IPv4 address
 * (`::ffff:169.254.169.254`, NAT64, 6to4) are judged by the embedded address. guardedFetch then connects to
 * the checked addresses only (see pinnedLookup), so a DNS answer that changes between check and connect
 * (rebinding) cannot take the connection elsewhere.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AddressNotAllowedError, InvalidUrlError, NetworkError } from './errors.ts';
import { loopbackPortAllowed } from './loopback-allow.ts';

/** 'cloud' on AWS; 'local' in the local runtime, where loopback is also allowed. */
export type GuardMode = 'cloud' | 'local';

/** Why an address is refused. Only `loopback` depends on the mode. */
type AddressCategory =
  | 'metadata'
  | 'unspecified'
  | 'link_local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'special';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: AddressCategory };

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses. Injected in tests (e.g. `evil.test` → 10.0.0.1). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Cloud metadata, instance-data and cloud DNS endpoints: refused in every mode, checked first. */
const METADATA_V4 = [
  '169.254.169.254', // AWS, Azure, GCP, Oracle, DigitalOcean... instance metadata
  '169.254.169.253', // AWS VPC DNS
  '169.254.170.2', // ECS task metadata / credentials
  '169.254.170.23', // EKS pod identity agent
  '100.100.100.200', // Alibaba Cloud metadata
  '192.0.0.192', // Oracle Cloud metadata (older)
];
const METADATA_V6 = ['fd00:ec2::254', 'fd00:ec2::253', 'fd00:ec2::23'];

/** Names of metadata services, refused without resolving them (they only resolve inside the cloud). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

type Rule = { category: AddressCategory; subnets: [string, number][] };

/** IPv4 rules, first match wins. Anything not listed is public unicast and allowed. */
const V4_RULES: Rule[] = [
  { category: 'metadata', subnets: METADATA_V4.map((a) => [a, 32]) },
  { category: 'unspecified', subnets: [['0.0.0.0', 8]] },
  { category: 'link_local', subnets: [['169.254.0.0', 16]] },
  { category: 'multicast', subnets: [['224.0.0.0', 4]] },
  { category: 'broadcast', subnets: [['255.255.255.255', 32]] },
  { category: 'reserved', subnets: [['240.0.0.0', 4]] },
  { category: 'loopback', subnets: [['127.0.0.0', 8]] },
  {
    category: 'private',
    subnets: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
  },
  { category: 'shared', subnets: [['100.64.0.0', 10]] }, // carrier-grade NAT
  {
    category: 'special',
    subnets: [
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation (TEST-NET-1)
      ['198.51.100.0', 24], // TEST-NET-2
      ['203.0.113.0', 24], // TEST-NET-3
      ['198.18.0.0', 15], // benchmarking
      ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
    ],
  },
];

/**
 * IPv6 rules, first match wins, applied after embedded IPv4 forms were judged. Only global unicast
 * (2000::/3) outside these subnets is allowed; every other IPv6 address is `reserved`.
 */
const V6_RULES: Rule[] = [
  { category: 'metadata', subnets: METADATA_V6.map((a) => [a, 128]) },
  { category: 'unspecified', subnets: [['::', 128]] },
  { category: 'loopback', subnets: [['::1', 128]] },
  { category: 'link_local', subnets: [['fe80::', 10]] },
  { category: 'multicast', subnets: [['ff00::', 8]] },
  { category: 'private', subnets: [['fc00::', 7]] }, // unique local
  { category: 'reserved', subnets: [['fec0::', 10]] }, // site-local (deprecated)
  {
    category: 'special',
    subnets: [
      ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID...
      ['2001:db8::', 32], // documentation
      ['3fff::', 20], // documentation
      ['64:ff9b:1::', 48], // local-use NAT64
      ['100::', 64], // discard-only
    ],
  },
];

const buildLists = (rules: Rule[], type: 'ipv4' | 'ipv6') =>
  rules.map(({ category, subnets }) => {
    const list = new BlockList();
    for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
    return { category, list };
  });
const V4_LISTS = buildLists(V4_RULES, 'ipv4');
const V6_LISTS = buildLists(V6_RULES, 'ipv6');
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');

/** Loopback is allowed in local mode only, and there only to the ports the runtime allows (never its data stores). */
const isAllowedCategory = (category: AddressCategory, mode: GuardMode, port: number | undefined) =>
  mode === 'local' && category === 'loopback' && (port === undefined || loopbackPortAllowed(port));

/** The port a URL connects to. */
const portOf = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** Parses a valid IPv6 address (as accepted by net.isIP) into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(groups: number[]): string | undefined {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const [g0, g1, g2, , , g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (zero(0, 5) && g5 === 0xffff) return v4(g6, g7); // ::ffff:a.b.c.d (IPv4-mapped)
  if (zero(0, 4) && g5 === 0 && groups[4] === 0xffff) return v4(g6, g7); // ::ffff:0:a.b.c.d (SIIT)
  if (zero(0, 6) && (g6 !== 0 || g7 > 1)) return v4(g6, g7); // ::a.b.c.d (IPv4-compatible, deprecated)
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return v4(g6, g7); // 64:ff9b::a.b.c.d (NAT64)
  if (g0 === 0x2002) return v4(g1, g2); // 2002:AABB:CCDD::/48 (6to4)
  return undefined;
}

function categoryOf(address: string): AddressCategory | undefined {
  const family = isIP(address);
  if (family === 4) return V4_LISTS.find(({ list }) => list.check(address, 'ipv4'))?.category;
  if (family !== 6) throw new InvalidUrlError(address, 'not an IP address');
  const bare = address.split('%')[0]!;
  const v4 = embeddedIpv4(ipv6Groups(bare));
  if (v4 !== undefined) return categoryOf(v4);
  const match = V6_LISTS.find(({ list }) => list.check(bare, 'ipv6'))?.category;
  if (match) return match;
  return GLOBAL_UNICAST_V6.check(bare, 'ipv6') ? undefined : 'reserved';
}

/** Judges one IP address (v4 or v6, no brackets). Throws InvalidUrlError if it is not an IP address. */
export function checkAddress(address: string, mode: GuardMode, port?: number): AddressVerdict {
  const category = categoryOf(address);
  if (category === undefined || isAllowedCategory(category, mode, port)) return { allowed: true };
  return { allowed: false, reason: category };
}

/** Parses an absolute http(s) URL without credentials, or throws InvalidUrlError. */
export function parseHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new InvalidUrlError(String(input), 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidUrlError(url.href, `scheme ${url.protocol} not allowed`);
  if (url.username || url.password) throw new InvalidUrlError(url.href, 'credentials in the URL are not allowed');
  if (!url.hostname) throw new InvalidUrlError(url.href, 'no host');
  return url;
}

/** The URL's host as a connectable name or address: brackets of IPv6 literals and trailing dots removed. */
const bareHostname = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** A URL that passed the guard, with the addresses the connection must go to. */
export interface CheckedTarget {
  url: URL;
  /** Host to connect to by name (Host header and TLS SNI) or the IP literal; no brackets. */
  hostname: string;
  /** Every address the name resolved to, all allowed. Non-empty. */
  addresses: ResolvedAddress[];
}

export interface GuardOptions {
  mode: GuardMode;
  /** Defaults to the system resolver (dns.lookup, all addresses). */
  resolve?: Resolver;
}

/**
 * What can be judged of a URL's host without asking DNS: an IP literal, a metadata name, `localhost` outside
 * local mode. Returns the reason for refusing, or undefined when the host may still be fine (a name is only
 * judged fully by checkUrl, through the addresses it resolves to). Used to refuse requests up front.
 */
export function refusalWithoutResolving(url: URL, mode: GuardMode): string | undefined {
  const hostname = bareHostname(url);
  if (isIP(hostname)) {
    const verdict = checkAddress(hostname, mode, portOf(url));
    return verdict.allowed ? undefined : verdict.reason;
  }
  const name = hostname.replace(/\.+$/, '');
  if (METADATA_NAMES.has(name)) return 'metadata';
  if ((name === 'localhost' || name.endsWith('.localhost')) && (mode !== 'local' || !loopbackPortAllowed(portOf(url)))) return 'loopback';
  return undefined;
}

/**
 * Checks a URL: scheme, host name and every address it resolves to. Returns the addresses to pin the
 * connection to. Throws InvalidUrlError, AddressNotAllowedError, or NetworkError (name does not resolve).
 */
export async function checkUrl(input: string | URL, options: GuardOptions): Promise<CheckedTarget> {
  const url = parseHttpUrl(input);
  const hostname = bareHostname(url);
  const refuse = (reason: string, address?: string): never => {
    throw new AddressNotAllowedError(url.hostname, reason, address);
  };
  const family = isIP(hostname);
  const reason = refusalWithoutResolving(url, options.mode);
  if (reason) refuse(reason, family ? hostname : undefined);
  if (family) return { url, hostname, addresses: [{ address: hostname, family: family === 6 ? 6 : 4 }] };
  if (!hostname.replace(/\.+$/, '')) throw new InvalidUrlError(url.href, 'no host');
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(hostname);
  } catch (err) {
    throw new NetworkError(`cannot resolve ${hostname}`, err);
  }
  if (addresses.length === 0) throw new NetworkError(`${hostname} resolves to no address`);
  for (const { address } of addresses) {
    const verdict = checkAddress(address, options.mode, portOf(url));
    if (!verdict.allowed) refuse(verdict.reason, address);
  }
  return { url, hostname, addresses };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * A `lookup` for net/http/tls connect options that answers with the checked addresses instead of asking DNS
 * again, so the connection goes where the guard looked. Handles both the single-address and the `all: true`
 * form (the latter is what Node 20's happy-eyeballs connect asks for).
 */
export function pinnedLookup(target: Pick<CheckedTarget, 'hostname' | 'addresses'>) {
  return (hostname: string, options: { all?: boolean; family?: number } | number | LookupCallback, callback?: LookupCallback) => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts = typeof options === 'object' ? options : {};
    if (hostname !== target.hostname) {
      const err: NodeJS.ErrnoException = new Error(`unexpected lookup of ${hostname}`);
      err.code = 'ENOTFOUND';
      return process.nextTick(cb, err, '');
    }
    const wanted = opts.family === 4 || opts.family === 6 ? target.addresses.filter((a) => a.family === opts.family) : target.addresses;
    const list = wanted.length > 0 ? wanted : target.addresses;
    if (opts.all) return process.nextTick(cb, null, list);
    return process.nextTick(cb, null, list[0]!.address, list[0]!.family);
  };
}
