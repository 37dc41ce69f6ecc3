import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ActionDef,
  ListResource,
  OperationResource,
  OPERATION_ACTIONS,
  Resource,
  SettingsResource,
  StatisticsResource,
} from '../../server/contract/index.js';
import { RESOURCES, formFields, resourceCalls } from '../../server/contract/index.js';
import { CODES, SandboxError, badRequest, ok } from '../errors.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { Identified } from '../store/collection.js';
import { mergeSpec, specFor } from '../store/specs.js';
import { adminOf, bodyObject, parseId, parseIds, queryObject } from './common.js';
import { readFields } from './resource-input.js';
import { statisticsRange } from './dashboard.js';
import type {
  ActionHandler,
  Bindings,
  Ctx,
  ListBinding,
  OperationBinding,
  SettingsBinding,
  StatisticsBinding,
} from './bindings/types.js';

export * from './bindings/types.js';

/**
 * The management resources of the contract (server/contract/resources), each served from its
 * definition: list, detail, save, delete, config, preview, statistics and named actions under the
 * resource's path. What a resource does beyond storing rows comes from its binding.
 */

type Row = Record<string, unknown>;
type LogAction = (typeof OPERATION_ACTIONS)[number];
const LOGGED_AS: Readonly<Record<string, LogAction>> = {
  ban: 'ban',
  unban: 'unban',
  approve: 'approve',
  reject: 'reject',
};
const MAX_DETAIL = 300;
const SECRET_INPUTS = new Set(['password', 'confirm']);

function contextOf(request: FastifyRequest, store: SandboxStore): Ctx {
  return { store, admin: adminOf(request), ip: request.ip, now: Date.now() };
}

function describe(name: string, ids: readonly number[] | null, inputs: Row): string {
  const target =
    ids && ids.length > 0 ? ` #${ids.slice(0, 20).join(', #')}${ids.length > 20 ? ` (+${ids.length - 20})` : ''}` : '';
  const shown = Object.entries(inputs)
    .filter(
      ([key, value]) => !SECRET_INPUTS.has(key) && typeof value !== 'object' && value !== '' && value !== undefined,
    )
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ');
  const text = `${name}${target}${shown ? `: ${shown}` : ''}`;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

function log(ctx: Ctx, resource: Resource, action: LogAction, detail: string): void {
  ctx.store.logOperation({ adminAccount: ctx.admin.account, action, module: resource.id, detail, ip: ctx.ip }, ctx.now);
}

function notFound(resource: Resource, id: number): SandboxError {
  return new SandboxError(CODES.notFound, `${resource.id} record ${id} not found`);
}

function registerList(
  app: FastifyInstance,
  store: SandboxStore,
  resource: ListResource,
  binding: ListBinding<Identified & Row>,
): void {
  const calls = resourceCalls(resource);
  const { collection } = binding;
  const spec = mergeSpec(collection.options, specFor(resource));
  const wire = (item: Identified & Row): Row => (binding.wire ? binding.wire(item) : item);
  const find = (id: number) => {
    const item = collection.get(id);
    if (!item) throw notFound(resource, id);
    return item;
  };

  app.get(calls.list, async (request) => {
    binding.refresh?.(Date.now());
    const page = collection.query(collection.parseQuery(request.query, spec), spec);
    return ok({ ...page, list: page.list.map(wire) });
  });

  if (resource.detail || binding.detail) {
    app.get(calls.detail, async (request) => {
      binding.refresh?.(Date.now());
      const item = find(parseId(queryObject(request).id));
      return ok(binding.detail ? binding.detail(item, contextOf(request, store)) : wire(item));
    });
  }

  if (binding.preview) {
    const preview = binding.preview;
    app.get(calls.preview, async (request) => ok(preview(queryObject(request), contextOf(request, store))));
  }

  if (resource.create || resource.edit) {
    app.post(calls.save, async (request) => {
      const body = bodyObject(request.body);
      const ctx = contextOf(request, store);
      const hasId = body.id !== undefined && body.id !== null && body.id !== '';
      if (hasId) {
        if (!resource.edit) throw badRequest(`${resource.id} records cannot be edited`);
        const item = find(parseId(body.id));
        const values = readFields(formFields(resource, 'edit'), body, {
          base: wire(item),
          keepEmptyPasswords: true,
          ...(resource.rules ? { rules: resource.rules } : {}),
        });
        binding.prepare?.(values, ctx, item);
        if (binding.update) binding.update(item, values, ctx);
        else Object.assign(item, values);
        log(ctx, resource, 'update', describe('update', [item.id], values));
        return ok(wire(item));
      }
      if (!resource.create) throw badRequest(`${resource.id} records cannot be created`);
      const values = readFields(formFields(resource, 'create'), body, resource.rules ? { rules: resource.rules } : {});
      binding.prepare?.(values, ctx, null);
      let item: Identified & Row;
      if (binding.create) item = binding.create(values, ctx);
      else {
        const record: Row = {};
        for (const field of resource.fields) {
          if (field.key === 'id') continue;
          if (field.readOnly) record[field.key] = field.key === 'createTime' ? new Date(ctx.now).toISOString() : null;
        }
        item = collection.insert({ ...record, ...values } as Omit<Identified & Row, 'id'>);
      }
      log(ctx, resource, 'create', describe('create', [item.id], values));
      return ok(wire(item));
    });
  }

  if (resource.remove) {
    app.post(calls.remove, async (request) => {
      const ids = parseIds(bodyObject(request.body));
      const ctx = contextOf(request, store);
      for (const id of ids) find(id);
      const deleted = binding.remove ? binding.remove(ids, ctx) : collection.remove(ids);
      log(ctx, resource, 'delete', describe('delete', ids, {}));
      return ok({ deleted });
    });
  }

  registerActions(app, store, resource, resource.actions ?? [], binding.actions ?? {}, (id) => wire(find(id)));
}

function registerActions(
  app: FastifyInstance,
  store: SandboxStore,
  resource: Resource,
  actions: readonly ActionDef[],
  handlers: Record<string, ActionHandler>,
  row: ((id: number) => Row) | null,
): void {
  const calls = resourceCalls(resource);
  const byName = new Map<string, ActionDef[]>();
  for (const action of actions) byName.set(action.name, [...(byName.get(action.name) ?? []), action]);
  // The UI offers an undo by calling the named action, so it must be one this resource serves.
  for (const action of actions) {
    if (action.undo && !byName.has(action.undo))
      throw new Error(`${resource.id}.${action.name} is undone by ${action.undo}, which it does not declare`);
  }
  for (const [name, variants] of byName) {
    const handler = handlers[name];
    if (!handler) throw new Error(`the sandbox has no handler for ${resource.id}.${name}`);
    const bulk = variants.find((v) => v.target === 'bulk');
    const single = variants.find((v) => v.target === 'row');
    const page = variants.find((v) => v.target === 'page');
    app.post(calls.action(name), async (request) => {
      const body = request.body === undefined || request.body === null ? {} : bodyObject(request.body);
      const ctx = contextOf(request, store);
      let variant: ActionDef | undefined;
      let ids: number[] | null = null;
      if (Array.isArray(body.ids) && bulk) variant = bulk;
      else if (body.id !== undefined && single) variant = single;
      else variant = page ?? single ?? bulk;
      if (!variant) throw badRequest(`${name} needs a target`);
      // Inputs first, so a dialog hears about its own fields before anything else.
      const inputs = readFields(variant.inputs ?? [], body);
      if (variant.target !== 'page') {
        ids = variant.target === 'bulk' ? parseIds(body) : [parseId(body.id)];
        for (const id of ids) {
          const found = row?.(id);
          const when = variant.when;
          if (found && when && variant.target === 'row' && !when.in.some((v) => v === found[when.field])) {
            throw badRequest(
              `${name} does not apply to ${resource.id} record ${id} (${when.field} is ${String(found[when.field])})`,
            );
          }
        }
      }
      const result = await handler({ ids, inputs, ctx });
      log(ctx, resource, LOGGED_AS[name] ?? 'update', describe(name, ids, inputs));
      return ok(result ?? { done: true });
    });
  }
}

function maskSecrets(resource: SettingsResource, values: Row): Row {
  const out: Row = { ...values };
  for (const field of resource.fields) if (field.kind === 'password') out[field.key] = '';
  return out;
}

function registerSettings(
  app: FastifyInstance,
  store: SandboxStore,
  resource: SettingsResource,
  binding: SettingsBinding,
): void {
  const calls = resourceCalls(resource);
  const current = store.settings[resource.id];
  if (!current) throw new Error(`the sandbox has no settings for ${resource.id}`);
  app.get(calls.config, async () => ok(maskSecrets(resource, current)));
  app.post(calls.config, async (request) => {
    const body = bodyObject(request.body);
    const ctx = contextOf(request, store);
    const values = readFields(resource.fields, body, {
      base: current,
      keepEmptyPasswords: true,
      ...(resource.rules ? { rules: resource.rules } : {}),
    });
    binding.check?.({ ...current, ...values });
    Object.assign(current, values);
    binding.afterSave?.(values, ctx);
    log(ctx, resource, 'config', `config: ${Object.keys(values).join(', ')}`.slice(0, MAX_DETAIL));
    return ok(maskSecrets(resource, current));
  });
  registerActions(app, store, resource, resource.actions ?? [], binding.actions ?? {}, null);
}

function registerStatistics(app: FastifyInstance, resource: StatisticsResource, binding: StatisticsBinding): void {
  app.get(resourceCalls(resource).list, async (request) => {
    const query = queryObject(request);
    const { start, end } = statisticsRange(query, Date.now());
    let dimension: string | null = null;
    if (resource.dimension) {
      const raw = query[resource.dimension.key];
      if (typeof raw === 'string' && raw.trim() !== '') {
        dimension = raw.trim();
        if (!resource.dimension.options.includes(dimension))
          throw badRequest(`${resource.dimension.key} must be one of ${resource.dimension.options.join(', ')}`);
      }
    }
    const list = binding.rows(start, end, dimension, Date.now());
    return ok({ list, total: list.length });
  });
}

function registerOperation(
  app: FastifyInstance,
  store: SandboxStore,
  resource: OperationResource,
  binding: OperationBinding,
): void {
  const calls = resourceCalls(resource);
  if (resource.preview) {
    app.get(calls.preview, async (request) => {
      const inputs = readFields(resource.inputs, queryObject(request));
      return ok(binding.preview(inputs, contextOf(request, store)));
    });
  }
  app.post(calls.action(resource.run), async (request) => {
    const body = bodyObject(request.body);
    const ctx = contextOf(request, store);
    const inputs = readFields(resource.inputs, body);
    if (resource.confirmText !== undefined && body.confirm !== resource.confirmText) {
      throw badRequest(`请输入 ${resource.confirmText} 以确认操作`);
    }
    const result = binding.run(inputs, ctx);
    log(ctx, resource, 'delete', describe(resource.run, null, inputs));
    return ok(result);
  });
}

/** Registers every resource of the contract; a resource without a binding stops the sandbox from starting. */
export function registerResources(
  app: FastifyInstance,
  store: SandboxStore,
  bindings: Bindings,
  resources: readonly Resource[] = RESOURCES,
): void {
  for (const resource of resources) {
    if (resource.kind === 'list') {
      const binding = bindings.list[resource.id];
      if (!binding) throw new Error(`the sandbox has no binding for the list ${resource.id}`);
      registerList(app, store, resource, binding as unknown as ListBinding<Identified & Row>);
    } else if (resource.kind === 'settings') {
      registerSettings(app, store, resource, bindings.settings[resource.id] ?? {});
    } else if (resource.kind === 'statistics') {
      const binding = bindings.statistics[resource.id];
      if (!binding) throw new Error(`the sandbox has no binding for the statistics ${resource.id}`);
      registerStatistics(app, resource, binding);
    } else {
      const binding = bindings.operation[resource.id];
      if (!binding) throw new Error(`the sandbox has no binding for the operation ${resource.id}`);
      registerOperation(app, store, resource, binding);
    }
  }
}
