/**
 * Checks AWS Signature Version 4 on requests to the local emulators, as the AWS services do: the Authorization
 * header (SDK clients) or the query string (presigned links). The canonical request, string to sign and signing
 * key come from the SDK's own signer (@smithy/signature-v4); this file only picks the parts of the received request
 * that were signed and compares.
 */
import { type BinaryLike, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ALGORITHM_IDENTIFIER, createScope, getCanonicalHeaders, getSigningKey, SignatureV4, UNSIGNED_PAYLOAD } from '@smithy/signature-v4';
import type { LocalCredentials } from './data-dir.ts';

/** AWS refuses a header-signed request more than 15 minutes from its clock. */
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
/** S3's longest presigned link: a week. */
const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;
const LONG_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

type Bytes = string | ArrayBuffer | ArrayBufferView;
const toBinary = (data: Bytes): BinaryLike =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/** The hash the signer is built with, from node:crypto (as @smithy/hash-node does). */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: Bytes) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBinary(secret));
  }
  update(data: Bytes) {
    this.hash.update(toBinary(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

export interface ReceivedRequest {
  method: string;
  /** As received: path and query string, still encoded. */
  url: string;
  /** Node's lowercased headers. */
  headers: Record<string, string | string[] | undefined>;
  /** The body, when it was read before checking (DynamoDB, SQS); S3 relies on its signed x-amz-content-sha256. */
  body?: Buffer;
}

type SignableRequest = Parameters<SignatureV4['presign']>[0];

/** How a request proved (or failed to prove) it comes from a holder of the credentials. */
export type Verdict = { ok: true; presigned: boolean } | { ok: false; reason: string };

const refuse = (reason: string): Verdict => ({ ok: false, reason });

const parseQuery = (raw: string): Record<string, string | string[]> => {
  const query: Record<string, string | string[]> = {};
  for (const pair of raw ? raw.split('&') : []) {
    const at = pair.indexOf('=');
    const key = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
    const prior = query[key];
    query[key] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  return query;
};

const dateOf = (longDate: string) => {
  const m = LONG_DATE.exec(longDate);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
};

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The signed parts of a request, however they were carried. */
interface Claim {
  presigned: boolean;
  credential: string;
  signedHeaders: string;
  signature: string;
  longDate: string;
  payloadHash: string;
  /** The query the signature covers (a presigned link's own parameters but its signature). */
  query: Record<string, string | string[]>;
}

export class SigV4Verifier extends SignatureV4 {
  private readonly key: LocalCredentials;

  constructor(
    credentials: LocalCredentials,
    private readonly region: string,
    private readonly serviceName: 'dynamodb' | 's3' | 'sqs',
  ) {
    // S3 signs the path as sent; the other services sign it normalised and encoded again.
    super({ credentials, region, service: serviceName, sha256: NodeSha256, uriEscapePath: serviceName !== 's3', applyChecksum: false });
    this.key = credentials;
  }

  async verify(request: ReceivedRequest, now = Date.now()): Promise<Verdict> {
    const at = request.url.indexOf('?');
    const path = at < 0 ? request.url : request.url.slice(0, at);
    let claim: Claim | Verdict;
    let signedPath: string;
    try {
      signedPath = this.serviceName === 's3' ? path : decodeURIComponent(path);
      const query = parseQuery(at < 0 ? '' : request.url.slice(at + 1));
      claim = 'X-Amz-Algorithm' in query ? this.presignedClaim(query, now) : this.headerClaim(request, query, now);
    } catch {
      return refuse('malformed path or query string');
    }
    if ('ok' in claim) return claim;
    const [accessKeyId, shortDate, region, service, terminator, ...rest] = claim.credential.split('/');
    if (accessKeyId !== this.key.accessKeyId) return refuse('unknown access key');
    if (rest.length || terminator !== 'aws4_request' || region !== this.region || service !== this.serviceName)
      return refuse('wrong credential scope');
    if (shortDate !== claim.longDate.slice(0, 8)) return refuse('credential date differs from the request date');
    const names = claim.signedHeaders.split(';');
    if (!names.includes('host')) return refuse('host is not signed');
    const picked: Record<string, string> = {};
    for (const name of names) {
      const value = request.headers[name];
      if (value === undefined) return refuse('a signed header is missing');
      picked[name] = Array.isArray(value) ? value.join(',') : value;
    }
    const canonicalHeaders = getCanonicalHeaders({ headers: picked } as SignableRequest, undefined, new Set(names));
    const signable: SignableRequest = {
      method: request.method,
      protocol: 'http:',
      hostname: '',
      path: signedPath,
      query: claim.query,
      headers: picked,
    };
    const scope = createScope(shortDate, region, service);
    const stringToSign = await this.createStringToSign(
      claim.longDate,
      scope,
      this.createCanonicalRequest(signable, canonicalHeaders, claim.payloadHash),
      ALGORITHM_IDENTIFIER,
    );
    const signingKey = await getSigningKey(NodeSha256, this.key, shortDate, region, service);
    const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
    return sameHex(expected, claim.signature) ? { ok: true, presigned: claim.presigned } : refuse('signature does not match');
  }

  private headerClaim(request: ReceivedRequest, query: Record<string, string | string[]>, now: number): Claim | Verdict {
    const authorization = request.headers.authorization;
    if (typeof authorization !== 'string') return refuse('not signed');
    const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization);
    if (!m) return refuse('malformed authorization');
    const longDate = request.headers['x-amz-date'];
    const date = typeof longDate === 'string' ? dateOf(longDate) : undefined;
    if (!date || !m[2]!.split(';').includes('x-amz-date')) return refuse('no signed x-amz-date');
    if (Math.abs(now - date.getTime()) > MAX_CLOCK_SKEW_MS) return refuse('request time too skewed');
    const declared = request.headers['x-amz-content-sha256'];
    const bodyHash = request.body && createHash('sha256').update(request.body).digest('hex');
    let payloadHash: string;
    if (typeof declared === 'string') {
      if (bodyHash !== undefined && declared !== bodyHash) return refuse('body does not match its declared hash');
      if (bodyHash === undefined && this.serviceName !== 's3') return refuse('body not checked');
      payloadHash = declared;
    } else if (bodyHash !== undefined) payloadHash = bodyHash;
    else return refuse('no payload hash');
    return { presigned: false, credential: m[1]!, signedHeaders: m[2]!, signature: m[3]!, longDate: longDate as string, payloadHash, query };
  }

  private presignedClaim(query: Record<string, string | string[]>, now: number): Claim | Verdict {
    const field = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const [algorithm, credential, signedHeaders, signature, longDate, expires] = [
      'X-Amz-Algorithm',
      'X-Amz-Credential',
      'X-Amz-SignedHeaders',
      'X-Amz-Signature',
      'X-Amz-Date',
      'X-Amz-Expires',
    ].map(field);
    if (this.serviceName !== 's3') return refuse('presigned links are for S3');
    if (algorithm !== ALGORITHM_IDENTIFIER || !credential || !signedHeaders || !signature || !longDate || !expires)
      return refuse('malformed presigned link');
    const date = dateOf(longDate);
    const seconds = /^\d{1,7}$/.test(expires) ? Number(expires) : NaN;
    if (!date || !(seconds >= 1 && seconds <= MAX_PRESIGNED_SECONDS)) return refuse('malformed presigned link');
    if (date.getTime() - now > MAX_CLOCK_SKEW_MS) return refuse('presigned link dated in the future');
    if (now > date.getTime() + seconds * 1000) return refuse('presigned link expired');
    return { presigned: true, credential, signedHeaders, signature, longDate, payloadHash: UNSIGNED_PAYLOAD, query };
  }
}
