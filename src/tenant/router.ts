/** Matches a request path against a route table of `{param}` templates. */
import { badField } from './errors';

export interface Routable<M extends string> {
  method: M;
  path: string;
}

export type Match<R> = { route: R; params: Record<string, string> } | { allowed: string[] } | null;

export class Router<M extends string, R extends Routable<M>> {
  private readonly compiled: { route: R; segments: string[] }[];

  constructor(routes: R[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
  }

  /**
   * The route for `method` and `path`, or the methods the path allows (405), or null (404).
   * A parameter never matches an empty segment, so `/tasks//action/escalate` is not a task.
   */
  match(method: string, path: string): Match<R> {
    const segments = path.split('/').slice(1);
    const allowed: string[] = [];
    for (const { route, segments: pattern } of this.compiled) {
      if (pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < pattern.length && ok; i += 1) {
        const want = pattern[i] as string;
        const got = segments[i] as string;
        if (want.startsWith('{')) {
          if (got === '') ok = false;
          else params[want.slice(1, -1)] = decode(got, want.slice(1, -1));
        } else ok = want === got;
      }
      if (!ok) continue;
      if (route.method === method) return { route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : null;
  }
}

function decode(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badField(name, `'${segment}' is not a valid percent-encoded path segment`);
  }
}
