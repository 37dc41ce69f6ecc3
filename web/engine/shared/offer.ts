import type { BackendOffer, FieldDef, Resource } from '#contract';

/**
 * The offer's inputOptions of a resource, read leniently (it is not checked when the offer
 * arrives): by input key, what keeps the sendable ones of an input's options, in their order.
 */
function keptOptions(
  offer: BackendOffer,
  resourceId: string,
): Map<string, (options: readonly string[]) => string[]> | null {
  const byKey: unknown = offer.inputOptions?.[resourceId];
  if (typeof byKey !== 'object' || byKey === null) return null;
  const out = new Map<string, (options: readonly string[]) => string[]>();
  for (const [key, sent] of Object.entries(byKey)) {
    if (!Array.isArray(sent)) continue;
    const allowed = new Set(sent.filter((o): o is string => typeof o === 'string'));
    out.set(key, (options) => options.filter((o) => allowed.has(o)));
  }
  return out.size > 0 ? out : null;
}

/**
 * A resource as the bound backend offers it: the calls, actions and fields its backend map marks
 * unsupported or absent are taken out, and the filters its backend cannot apply, so buttons,
 * columns, filters and form fields that would fail never show (as if the resource never had them). Unchanged resources keep their identity.
 */
export function offeredResource<R extends Resource>(resource: R, offer: BackendOffer): R {
  const { calls, actions, fields } = offer.unsupported;
  const noCalls = new Set(calls[resource.id] ?? []);
  const noActions = new Set(actions[resource.id] ?? []);
  const absent = new Set(fields[resource.id] ?? []);
  const unfiltered = new Set(offer.unsupported.filters[resource.id] ?? []);
  const kept = keptOptions(offer, resource.id);
  if (noCalls.size === 0 && noActions.size === 0 && absent.size === 0 && unfiltered.size === 0 && !kept) {
    return resource;
  }
  const keep = <T extends { key: string }>(list: readonly T[]) => list.filter((f) => !absent.has(f.key));
  // An input's options the map cannot send are not offered (ejabberd announces to all or online only).
  const sendable = (inputs: readonly FieldDef[]) =>
    keep(inputs).map((f) => (kept?.has(f.key) && f.options ? { ...f, options: kept.get(f.key)!(f.options) } : f));
  switch (resource.kind) {
    case 'list':
      return {
        ...resource,
        // A field the backend cannot filter by keeps its column but loses its filter.
        fields: keep(resource.fields).map((f) => (unfiltered.has(f.key) && f.filter ? { ...f, filter: false } : f)),
        keywordFields: resource.keywordFields.filter((k) => !absent.has(k)),
        create: resource.create && !noCalls.has('create'),
        edit: resource.edit && !noCalls.has('update'),
        remove: resource.remove && !noCalls.has('delete'),
        detail: resource.detail && !noCalls.has('detail'),
        // An action whose condition reads a field the backend lacks is offered on every row: the
        // backend itself refuses it where it does not apply (OpenIM's ban of a user already blocked).
        actions: resource.actions
          ?.filter((a) => !noActions.has(a.name))
          .map((a) => (a.when && absent.has(a.when.field) ? { ...a, when: undefined } : a))
          .map((a) => (kept && a.inputs ? { ...a, inputs: sendable(a.inputs) } : a)),
        totals: resource.totals?.filter((k) => !absent.has(k)),
      };
    case 'settings':
      return {
        ...resource,
        fields: keep(resource.fields),
        actions: resource.actions
          ?.filter((a) => !noActions.has(a.name))
          .map((a) => (kept && a.inputs ? { ...a, inputs: sendable(a.inputs) } : a)),
      };
    case 'statistics':
      return { ...resource, series: keep(resource.series) };
    case 'operation':
      return { ...resource, inputs: sendable(resource.inputs), preview: resource.preview && !noCalls.has('preview') };
  }
}

/**
 * The filters a list cannot be read without on this backend (Shiku's bill needs its user). Read
 * here, leniently, rather than when the offer arrives, to keep that check out of the login page.
 */
export function neededFilters(offer: BackendOffer, resourceId: string): string[] {
  const keys: unknown = offer.needs?.[resourceId];
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}
