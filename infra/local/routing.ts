import type { FunctionDecl, Route } from '../wiring.ts';

/** An API Gateway resource (a path template without trailing slash) with the function behind each method. */
export interface Resource {
  path: string;
  segments: string[];
  methods: Map<string, { function: string; auth: boolean }>;
}

/**
 * API Gateway has no resource for a trailing slash: `/v1/bot/` is the `/v1/bot` resource, so a declared
 * route with a trailing slash lands on the resource without it.
 */
export const resourcePathOf = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** The resources of a set of functions, as the CDK stack would create them. Conflicting declarations fail. */
export function buildResources(functions: Record<string, FunctionDecl>): Resource[] {
  const resources = new Map<string, Resource>();
  for (const [name, decl] of Object.entries(functions)) {
    if (decl.trigger !== 'http') continue;
    for (const route of decl.routes as readonly Route[]) {
      const path = resourcePathOf(route.path);
      let resource = resources.get(path);
      if (!resource) {
        resource = { path, segments: path.split('/').slice(1), methods: new Map() };
        resources.set(path, resource);
      }
      const existing = resource.methods.get(route.method);
      const auth = route.auth !== 'none';
      if (existing && (existing.function !== name || existing.auth !== auth)) {
        throw new Error(`route ${route.method} ${path} is declared by both ${existing.function} and ${name} (or with different auth)`);
      }
      resource.methods.set(route.method, { function: name, auth });
    }
  }
  return [...resources.values()];
}

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/**
 * Finds the resource for a raw request path, as API Gateway does: literal segments win over `{param}` ones,
 * a single trailing slash is ignored, nothing else is normalised. Path parameters arrive URL-decoded.
 */
export function matchResource(resources: Resource[], rawPath: string): { resource: Resource; pathParameters: Record<string, string> } | undefined {
  const path = resourcePathOf(rawPath);
  if (!path.startsWith('/')) return undefined;
  const segments = path.split('/').slice(1);
  // API Gateway walks the tree segment by segment preferring a literal child, so the earliest literal wins.
  let best: { resource: Resource; pathParameters: Record<string, string>; rank: string } | undefined;
  for (const resource of resources) {
    if (resource.segments.length !== segments.length) continue;
    const pathParameters: Record<string, string> = {};
    let rank = '';
    let matches = true;
    for (let i = 0; i < segments.length && matches; i++) {
      const template = resource.segments[i]!;
      const actual = segments[i]!;
      const param = /^\{(.+)\}$/.exec(template);
      if (param) {
        if (actual === '') matches = false;
        else pathParameters[param[1]!] = decode(actual);
        rank += '0';
      } else if (template === actual) rank += '1';
      else matches = false;
    }
    if (matches && (!best || rank > best.rank)) best = { resource, pathParameters, rank };
  }
  return best && { resource: best.resource, pathParameters: best.pathParameters };
}
