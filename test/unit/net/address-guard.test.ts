import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAddress, checkUrl, type GuardMode, pinnedLookup, type Resolver } from '#commons/net/address-guard';
import { AddressNotAllowedError, InvalidUrlError, NetworkError } from '#commons/net/errors';

/** A resolver that knows a few names and fails for the rest (no DNS in unit tests). */
const fakeDns: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'evil.test': ['10.0.0.1'],
  'loop.test': ['127.0.0.1'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'meta.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'v6.test': ['2606:4700::1111'],
  localhost: ['127.0.0.1', '::1'],
};
const resolve: Resolver = async (name) => {
  const addresses = fakeDns[name.replace(/\.$/, '')];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

async function verdict(url: string, mode: GuardMode): Promise<string> {
  try {
    await checkUrl(url, { mode, resolve });
    return 'allowed';
  } catch (err) {
    if (err instanceof AddressNotAllowedError) return err.reason;
    if (err instanceof InvalidUrlError) return 'invalid_url';
    if (err instanceof NetworkError) return 'network_error';
    throw err;
  }
}

describe('checkUrl', () => {
  // [url, cloud verdict, local verdict]
  const table: [string, string, string][] = [
    ['https://93.184.216.34/video.mp4', 'allowed', 'allowed'],
    ['https://public.test/video.mp4', 'allowed', 'allowed'],
    ['http://[2606:4700::1111]:8080/x', 'allowed', 'allowed'],
    ['https://v6.test/', 'allowed', 'allowed'],
    // metadata, in every spelling
    ['http://169.254.169.254/latest/meta-data/', 'metadata', 'metadata'],
    ['http://2852039166/', 'metadata', 'metadata'],
    ['http://0xA9FEA9FE/', 'metadata', 'metadata'],
    ['http://0251.0376.0251.0376/', 'metadata', 'metadata'],
    ['http://169.254.169.254./', 'metadata', 'metadata'],
    ['http://[::ffff:169.254.169.254]/', 'metadata', 'metadata'],
    ['http://[::ffff:a9fe:a9fe]/', 'metadata', 'metadata'],
    ['http://[::169.254.169.254]/', 'metadata', 'metadata'],
    ['http://[64:ff9b::169.254.169.254]/', 'metadata', 'metadata'],
    ['http://[2002:a9fe:a9fe::1]/', 'metadata', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata', 'metadata'],
    ['http://100.100.100.200/', 'metadata', 'metadata'],
    ['http://169.254.170.2/v2/credentials', 'metadata', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata', 'metadata'],
    ['http://METADATA.google.internal./', 'metadata', 'metadata'],
    ['http://meta.test/', 'metadata', 'metadata'],
    ['http://mapped.test/', 'metadata', 'metadata'],
    // refused in every mode
    ['http://169.254.1.1/', 'link_local', 'link_local'],
    ['http://[fe80::1]/', 'link_local', 'link_local'],
    ['http://0.0.0.0/', 'unspecified', 'unspecified'],
    ['http://0/', 'unspecified', 'unspecified'],
    ['http://[::]/', 'unspecified', 'unspecified'],
    ['http://224.0.0.1/', 'multicast', 'multicast'],
    ['http://[ff02::1]/', 'multicast', 'multicast'],
    ['http://255.255.255.255/', 'broadcast', 'broadcast'],
    ['http://240.0.0.1/', 'reserved', 'reserved'],
    // private and special: refused in both modes
    ['http://10.0.0.1/', 'private', 'private'],
    ['http://172.16.5.4/', 'private', 'private'],
    ['http://172.31.255.255/', 'private', 'private'],
    ['http://192.168.1.1/', 'private', 'private'],
    ['http://[fc00::1]/', 'private', 'private'],
    ['http://[fd12:3456::1]/', 'private', 'private'],
    ['http://[::ffff:10.0.0.1]/', 'private', 'private'],
    ['http://100.64.0.1/', 'shared', 'shared'],
    ['http://198.18.0.1/', 'special', 'special'],
    ['http://192.0.2.1/', 'special', 'special'],
    ['http://[2001:db8::1]/', 'special', 'special'],
    ['http://[2001::1]/', 'special', 'special'],
    ['http://evil.test/', 'private', 'private'],
    ['http://mixed.test/', 'private', 'private'],
    // loopback: allowed only locally
    ['http://127.0.0.1:3000/hook', 'loopback', 'allowed'],
    ['http://127.1/', 'loopback', 'allowed'],
    ['http://2130706433/', 'loopback', 'allowed'],
    ['http://[::1]:3000/', 'loopback', 'allowed'],
    ['http://[::ffff:127.0.0.1]/', 'loopback', 'allowed'],
    ['http://localhost:3000/hook', 'loopback', 'allowed'],
    ['http://LOCALHOST./', 'loopback', 'allowed'],
    ['http://api.localhost/', 'loopback', 'network_error'],
    ['http://loop.test/', 'loopback', 'allowed'],
    // not http(s), or not a URL
    ['ftp://93.184.216.34/', 'invalid_url', 'invalid_url'],
    ['file:///etc/passwd', 'invalid_url', 'invalid_url'],
    ['gopher://127.0.0.1:6379/', 'invalid_url', 'invalid_url'],
    ['www.website.com/hook', 'invalid_url', 'invalid_url'],
    ['http://user:pw@public.test/', 'invalid_url', 'invalid_url'],
    ['http://[fe80::1%25eth0]/', 'invalid_url', 'invalid_url'],
    ['http://nowhere.test/', 'network_error', 'network_error'],
  ];

  it.each(table)('%s → cloud %s, local %s', async (url, cloud, local) => {
    expect(await verdict(url, 'cloud')).toBe(cloud);
    expect(await verdict(url, 'local')).toBe(local);
  });

  it('returns every resolved address to pin the connection to, and keeps the name', async () => {
    const target = await checkUrl('http://localhost:8080/x', { mode: 'local', resolve });
    expect(target.hostname).toBe('localhost');
    expect(target.addresses.map((a) => a.address)).toEqual(['127.0.0.1', '::1']);
    const literal = await checkUrl('http://[2606:4700::1111]/', { mode: 'cloud', resolve });
    expect(literal.hostname).toBe('2606:4700::1111');
  });

  it('names the host and the reason in the error', async () => {
    const err = await checkUrl('http://evil.test/x', { mode: 'cloud', resolve }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressNotAllowedError);
    expect(err).toMatchObject({ code: 'address_not_allowed', host: 'evil.test', reason: 'private', address: '10.0.0.1' });
    expect((err as Error).message).toContain('evil.test');
  });

  it('refuses metadata names without asking DNS', async () => {
    let asked = false;
    const spy: Resolver = async () => {
      asked = true;
      return [{ address: '93.184.216.34', family: 4 }];
    };
    await expect(checkUrl('http://metadata.google.internal/', { mode: 'local', resolve: spy })).rejects.toMatchObject({ reason: 'metadata' });
    expect(asked).toBe(false);
  });
});

const octet = fc.integer({ min: 0, max: 255 });
const ipv4In = (first: number, second: fc.Arbitrary<number> = octet) => fc.tuple(second, octet, octet).map(([b, c, d]) => `${first}.${b}.${c}.${d}`);
const privateIpv4 = fc.oneof(
  ipv4In(10),
  ipv4In(172, fc.integer({ min: 16, max: 31 })),
  ipv4In(192, fc.constant(168)),
  ipv4In(100, fc.integer({ min: 64, max: 127 })),
  ipv4In(198, fc.integer({ min: 18, max: 19 })),
);
const alwaysRefusedIpv4 = fc.oneof(
  ipv4In(169, fc.constant(254)),
  ipv4In(0),
  fc.integer({ min: 224, max: 255 }).chain((first) => ipv4In(first)),
);
const toMapped = (ipv4: string) => `::ffff:${ipv4}`;
const toDecimal = (ipv4: string) => String(ipv4.split('.').reduce((n, o) => n * 256 + Number(o), 0));

describe('checkAddress (properties)', () => {
  it('refuses every private, shared and benchmarking IPv4 address in both modes, also IPv4-mapped', () => {
    fc.assert(
      fc.property(privateIpv4, fc.constantFrom<GuardMode>('cloud', 'local'), (ip, mode) => {
        expect(checkAddress(ip, mode).allowed).toBe(false);
        expect(checkAddress(toMapped(ip), mode).allowed).toBe(false);
      }),
    );
  });

  it('refuses link-local, unspecified, multicast and reserved IPv4 in every mode', () => {
    fc.assert(
      fc.property(alwaysRefusedIpv4, fc.constantFrom<GuardMode>('cloud', 'local'), (ip, mode) => {
        expect(checkAddress(ip, mode).allowed).toBe(false);
        expect(checkAddress(toMapped(ip), mode).allowed).toBe(false);
      }),
    );
  });

  it('refuses loopback in cloud mode and allows it locally, in any spelling', () => {
    fc.assert(
      fc.property(ipv4In(127), (ip) => {
        expect(checkAddress(ip, 'cloud')).toEqual({ allowed: false, reason: 'loopback' });
        expect(checkAddress(ip, 'local')).toEqual({ allowed: true });
        expect(checkAddress(toMapped(ip), 'cloud').allowed).toBe(false);
      }),
    );
  });

  it('judges a URL with a decimal IPv4 host like the dotted address', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(privateIpv4, alwaysRefusedIpv4, ipv4In(127)), async (ip) => {
        await expect(checkUrl(`http://${toDecimal(ip)}/`, { mode: 'cloud' })).rejects.toBeInstanceOf(AddressNotAllowedError);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses unique-local and link-local IPv6 in every mode', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const ula = fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), group, group).map(([a, b, c]) => `${a.toString(16)}:${b}::${c}`);
    const linkLocal = fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), group).map(([a, b]) => `${a.toString(16)}::${b}`);
    fc.assert(
      fc.property(fc.oneof(ula, linkLocal), fc.constantFrom<GuardMode>('cloud', 'local'), (ip, mode) => {
        expect(checkAddress(ip, mode).allowed).toBe(false);
      }),
    );
  });

  it('allows public IPv4 addresses', () => {
    const publicIpv4 = fc
      .tuple(fc.integer({ min: 1, max: 223 }), octet, octet, octet)
      .map((o) => o.join('.'))
      .filter(
        (ip) =>
          !/^(10|127|0)\.|^169\.254\.|^172\.(1[6-9]|2\d|3[01])\.|^192\.168\.|^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|^198\.1[89]\.|^192\.0\.[02]\.|^198\.51\.100\.|^203\.0\.113\.|^192\.88\.99\./.test(
            ip,
          ),
      );
    fc.assert(
      fc.property(publicIpv4, (ip) => {
        expect(checkAddress(ip, 'cloud')).toEqual({ allowed: true });
        expect(checkAddress(toMapped(ip), 'cloud')).toEqual({ allowed: true });
      }),
    );
  });
});

describe('pinnedLookup', () => {
  const target = {
    hostname: 'public.test',
    addresses: [
      { address: '93.184.216.34', family: 4 as const },
      { address: '2606:4700::1111', family: 6 as const },
    ],
  };

  it('answers with the checked addresses, in both callback forms', async () => {
    const lookup = pinnedLookup(target);
    const all = await new Promise((resolve) => lookup('public.test', { all: true }, (_e, a) => resolve(a)));
    expect(all).toEqual(target.addresses);
    const one = await new Promise((resolve) => lookup('public.test', { family: 6 }, (_e, a, f) => resolve([a, f])));
    expect(one).toEqual(['2606:4700::1111', 6]);
  });

  it('refuses to resolve any other name', async () => {
    const lookup = pinnedLookup(target);
    const err = await new Promise((resolve) => lookup('other.test', {}, (e) => resolve(e)));
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
  });
});
