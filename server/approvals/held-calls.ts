import {
  RESOURCES,
  WITHDRAWAL_REVIEW,
  resourceCalls,
  type ListResource,
  type SettingsResource,
} from '../contract/index.js';
import type { BackendMap } from '../backend-map/engine.js';
import { GatewayError } from '../errors.js';
import { decodedPath } from '../lib/request-path.js';
import type { DualControlConfig } from './config.js';

/** A call of the console's contract that dual control holds. */
export type HeldRoute =
  | { kind: 'action'; resource: ListResource; action: string; path: string }
  | { kind: 'settings'; resource: SettingsResource; action: null; path: string };

/** What dual control makes of one request: hold it, refuse it, or leave it alone (null). */
export type Classified = { held: HeldRoute } | { refused: GatewayError } | null;

/** The withdrawal approval: the one named action held above DUAL_CONTROL_ABOVE. */
export const HELD_ACTION = 'approve';

const MANAGE = '/manage/';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether a lenient backend could route `folded` (a lower-case, decoded path) to `target`: Spring
 * matches any case, a suffix (`/approve.json`), a trailing slash and a path below it. Only the
 * exact spelling reaches dual control; every other one is refused rather than sent unheld.
 */
function readsAs(folded: string, target: string): boolean {
  return folded.startsWith(target) && !/^[a-z0-9_-]/.test(folded.slice(target.length));
}

function isUnsupported(
  map: BackendMap,
  call: Parameters<BackendMap['prepare']>[0],
  sample: Record<string, unknown>,
): boolean {
  try {
    return 'unsupported' in map.prepare(call, sample);
  } catch {
    return false;
  }
}

/** A backend map's path template (`/manage/withdrawal/{id}/approve`) as a pattern over folded paths. */
function templatePattern(template: string): RegExp {
  const parts = template
    .toLowerCase()
    .split(/\{[^}]+\}/)
    .map(escape);
  return new RegExp(`^${parts.join('[^/]+')}(?:[^a-z0-9_-].*)?$`);
}

/**
 * The calls dual control holds, found by path: the withdrawal approval and the saves of the
 * settings screens DUAL_CONTROL_SETTINGS names, in the console's contract. With a backend map, the
 * backend's own paths of those calls are refused when a browser sends them straight through the
 * proxy, so the map's translation (after the hold) is the only way to them.
 */
export class HeldCalls {
  private readonly routes: HeldRoute[] = [];
  private readonly backendPaths: { pattern: RegExp; route: HeldRoute }[] = [];
  /** Held calls the backend map marks unsupported: its route refuses them, nothing to hold. */
  private readonly unsupported = new Set<string>();

  constructor(config: DualControlConfig, map: BackendMap | null) {
    if (config.above !== null) {
      this.routes.push({
        kind: 'action',
        resource: WITHDRAWAL_REVIEW,
        action: HELD_ACTION,
        path: resourceCalls(WITHDRAWAL_REVIEW).action(HELD_ACTION),
      });
    }
    for (const id of config.settings) {
      const resource = RESOURCES.find((r): r is SettingsResource => r.kind === 'settings' && r.id === id);
      if (resource)
        this.routes.push({ kind: 'settings', resource, action: null, path: resourceCalls(resource).config });
    }
    if (map) this.bindBackendPaths(map);
  }

  get empty(): boolean {
    return this.routes.length === 0;
  }

  classify(method: string, path: string): Classified {
    // Only /manage reaches the backend with a session and a body; the proxy's other faces are GET only.
    if (path.length < MANAGE.length || path.slice(0, MANAGE.length).toLowerCase() !== MANAGE) return null;
    for (const route of this.routes) {
      if (path === route.path) return this.unsupported.has(route.path) ? null : this.onContractPath(method, route);
    }
    const folded = (decodedPath(path) ?? path).toLowerCase();
    for (const route of this.routes) {
      if (readsAs(folded, route.path.toLowerCase())) {
        return {
          refused: new GatewayError(
            'BAD_REQUEST',
            `another spelling of ${route.path}, which is held for a second approver: use that path as it is written`,
          ),
        };
      }
    }
    for (const { pattern, route } of this.backendPaths) {
      if (pattern.test(folded)) {
        return {
          refused: new GatewayError(
            'FORBIDDEN',
            `the backend's own path of ${route.path} is not served: that call goes through ${route.path}, where a second approver is asked`,
          ),
        };
      }
    }
    return null;
  }

  private onContractPath(method: string, route: HeldRoute): Classified {
    if (method === 'POST') return { held: route };
    // A settings screen reads its values at the same path; an action has nothing to read.
    if (route.kind === 'settings' && (method === 'GET' || method === 'HEAD')) return null;
    return {
      refused: new GatewayError(
        'METHOD_NOT_ALLOWED',
        `${method} ${route.path}: this call is held for a second approver and only POST is served`,
      ),
    };
  }

  private bindBackendPaths(map: BackendMap): void {
    for (const route of this.routes) {
      const call = map.calls().find((c) => c.method === 'POST' && c.path === route.path);
      if (!call) continue;
      // One sample of each form the call takes (a row, a selection; a settings save): their templates.
      const samples = route.kind === 'action' ? [{ id: 1 }, { ids: [1, 2] }] : [{}];
      if (samples.every((sample) => isUnsupported(map, call, sample))) this.unsupported.add(route.path);
      for (const sample of samples) {
        let prepared;
        try {
          prepared = map.prepare(call, sample);
        } catch {
          // A template the sample does not fill (it needs another member): its fixed part still counts.
          continue;
        }
        if ('unsupported' in prepared) continue;
        const template = prepared.bound.path;
        if (template.toLowerCase() === route.path.toLowerCase()) continue;
        if (!this.backendPaths.some((p) => p.pattern.source === templatePattern(template).source)) {
          this.backendPaths.push({ pattern: templatePattern(template), route });
        }
      }
    }
  }
}
