import { apiMethods, apiResourcePath, type FunctionDecl } from '../wiring.ts';

/** An API Gateway resource (a path template without trailing slash) with the function behind each method. */
export interface Resource {
  path: string;
  segments: string[];
  methods: Map<string, { function: string; auth: boolean }>;
}

/** The resources of a set of functions, as the CDK stack creates them (both read the wiring's apiMethods). */
export function buildResources(functions: Record<string, FunctionDecl>): Resource[] {
  const resources = new Map<string, Resource>();
  for (const method of apiMethods(functions)) {
    let resource = resources.get(method.resourcePath);
    if (!resource) {
      resource = { path: method.resourcePath, segments: method.resourcePath.split('/').slice(1), methods: new Map() };
      resources.set(method.resourcePath, resource);
    }
    resource.methods.set(method.method, { function: method.function, auth: method.auth });
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
  const path = apiResourcePath(rawPath);
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
